-- C edition only (the portable suite leaves this file out).
-- locality_uuid_identity(): each part agrees with the ids the generators make and with what
-- PostgreSQL reports; where a part came from; what a role without pg_read_all_settings sees.
SELECT i.node = locality_uuid_node(locality_uuid()) AS node_in_ids,
       CASE i.node_source
           WHEN 'mac' THEN i.node = ('x' || right(replace(i.mac, ':', ''), 7))::bit(28)::int
                           AND i.mac_interface IS NOT NULL
           WHEN 'no mac' THEN i.node = 0 AND i.mac IS NULL
       END AS node_from_mac,
       i.node_file IS NULL AND i.node_line IS NULL AS no_file,
       i.machine_hash = hot_uuid_machine(hot_uuid(0)) AS machine_in_ids,
       i.machine_source = 'host name'
           AND i.machine_hash = substring(decode(md5(i.machine_name), 'hex') FOR 3) AS machine_from_host,
       i.process_field = current_setting('locality_uuid.process_field') AS process_field,
       i.system_identifier = (SELECT system_identifier FROM pg_control_system()) AS system_identifier,
       i.timeline = (SELECT timeline_id FROM pg_control_checkpoint()) AS timeline,
       i.in_recovery = pg_is_in_recovery() AS in_recovery,
       i.state = locality_uuid_state() AS state
FROM locality_uuid_identity() i;

-- Settings made in the session: the value in use, its source, no file.
SET locality_uuid.node_id = 5;
SET locality_uuid.machine_name = 'db-eu-1';
SET locality_uuid.process_field = pid;
SELECT node, node_source, node_file, node_line, machine_hash, machine_name, machine_source,
       machine_file, machine_line, process_field,
       node = locality_uuid_node(locality_uuid()) AS node_in_ids,
       machine_hash = hot_uuid_machine(hot_uuid(0)) AS machine_in_ids
FROM locality_uuid_identity();
RESET locality_uuid.node_id;
RESET locality_uuid.machine_name;
RESET locality_uuid.process_field;
SELECT node_source IN ('mac', 'no mac') AS node_back, machine_source, process_field
FROM locality_uuid_identity();

-- One row with named columns, so that two servers compare column by column.
SELECT count(*) AS rows, pg_typeof(system_identifier) AS sysid_type, pg_typeof(timeline) AS timeline_type
FROM locality_uuid_identity() GROUP BY 2, 3;

-- A role without pg_read_all_settings sees the values in use and their sources, as in
-- pg_settings, but not the MAC, its interface or the host name; a member of it sees them.
CREATE ROLE regress_identity_plain;
CREATE ROLE regress_identity_reader IN ROLE pg_read_all_settings;
SET ROLE regress_identity_plain;
SELECT node = locality_uuid_node(locality_uuid()) AS node_in_ids,
       node_source IN ('mac', 'no mac') AS node_source,
       mac IS NULL AS no_mac, mac_interface IS NULL AS no_interface,
       machine_hash = hot_uuid_machine(hot_uuid(0)) AS machine_in_ids,
       machine_name IS NULL AS no_host_name, machine_source,
       system_identifier IS NOT NULL AS system_identifier
FROM locality_uuid_identity();
RESET ROLE;
SET ROLE regress_identity_reader;
SELECT (mac IS NOT NULL) = (node_source = 'mac') AS mac_shown,
       (mac_interface IS NOT NULL) = (node_source = 'mac') AS interface_shown,
       machine_name IS NOT NULL AS host_name_shown
FROM locality_uuid_identity();
RESET ROLE;
DROP ROLE regress_identity_plain;
DROP ROLE regress_identity_reader;
