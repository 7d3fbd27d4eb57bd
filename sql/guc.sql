-- C edition only (the portable suite leaves this file out).
-- Settings: defaults, mode switches, node id, process field.
SET timezone = 'UTC';
-- Settings exist once the library is loaded in the backend.
LOAD 'locality_uuid';

SELECT name, setting, context, vartype, min_val, max_val, enumvals
FROM pg_settings WHERE name LIKE 'locality_uuid.%' ORDER BY name;

-- The reference library's mode switches set the session's mode, as SET does.
SELECT locality_uuid_use_sequential_ids();
SHOW locality_uuid.counter_mode;
SELECT locality_uuid_use_variable_ids();
SHOW locality_uuid.counter_mode;

-- In a transaction that rolls back, the switch is undone too.
BEGIN;
SELECT locality_uuid_use_sequential_ids();
SHOW locality_uuid.counter_mode;
ROLLBACK;
SHOW locality_uuid.counter_mode;

-- node_id: an explicit value is carried by every generated id.
SET locality_uuid.node_id = 123456789;
SELECT locality_uuid_node(locality_uuid()) AS node, locality_uuid_mac(locality_uuid(true)) AS mac;
SET locality_uuid.node_id = 0;
SELECT locality_uuid_node(locality_uuid()) AS node;
SET locality_uuid.node_id = 268435455;
SELECT locality_uuid_mac(locality_uuid()) AS mac;
RESET locality_uuid.node_id;

-- -1 takes the MAC: stable within a backend, 28 bits.
SELECT count(DISTINCT locality_uuid_node(locality_uuid())) AS nodes,
       max(locality_uuid_node(locality_uuid())) <= 268435455 AS fits
FROM generate_series(1, 100);

-- process_field = pid: the OS pid mod 65536, as the reference libraries.
SET locality_uuid.process_field = pid;
SELECT locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536 AS is_pid;
-- process_field = backend (default): a slot number, constant in the backend, below the
-- number of process slots (from 18 autovacuum_worker_slots reserves the autovacuum workers'
-- slots; a parallel worker's slot follows them).
RESET locality_uuid.process_field;
SELECT count(DISTINCT locality_uuid_pid(locality_uuid())) AS values,
       max(locality_uuid_pid(locality_uuid())) < current_setting('max_connections')::int
           + coalesce(current_setting('autovacuum_worker_slots', true),
                      current_setting('autovacuum_max_workers'))::int
           + current_setting('max_worker_processes')::int
           + current_setting('max_wal_senders')::int
           + current_setting('max_prepared_transactions')::int + 10 AS below_slot_count
FROM generate_series(1, 100);

-- The locality_uuid prefix is reserved: a misspelt setting is an error, not a placeholder.
SET locality_uuid.node = 1;

-- sequential_seed: continue (default) or bucket; within a bucket both count up by 1.
SET locality_uuid.sequential_seed = bucket;
SELECT (locality_uuid_counter(b, true) - locality_uuid_counter(a, true) + 4294967296) % 4294967296 AS step
FROM (SELECT locality_uuid(true) AS a, locality_uuid(true) AS b) s;
RESET locality_uuid.sequential_seed;
SHOW locality_uuid.sequential_seed;
SET locality_uuid.sequential_seed = hash;
