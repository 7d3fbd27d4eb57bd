-- Field extraction: the decoding example of docs/format.md, section 1, other versions, round trips.
SET timezone = 'UTC';

-- The decoding example of docs/format.md, section 1: its first vector.
SELECT locality_uuid_version(id)   AS version,
       locality_uuid_pid(id)       AS pid,
       locality_uuid_mac(id)       AS mac,
       locality_uuid_node(id)      AS node,
       locality_uuid_counter(id)   AS counter,
       locality_uuid_timestamp(id) AS ts
FROM (VALUES ('20be0ffc-314a-bd53-7a50-013a65ca76d2'::uuid)) AS t(id);

-- A sequential id: its counter reads plainly with sequential => true.
SELECT locality_uuid_counter('01b85440-314a-bd53-7a50-013a65ca76d2') AS variable_reading,
       locality_uuid_counter('01b85440-314a-bd53-7a50-013a65ca76d2', sequential => true)
           AS sequential_reading,
       to_hex(locality_uuid_counter('01b85440-314a-bd53-7a50-013a65ca76d2', true)) AS hex;

-- Another version digit: the layout-specific extractors return NULL.
SELECT locality_uuid_version(id) AS version,
       locality_uuid_pid(id) IS NULL AS pid_null,
       locality_uuid_mac(id) IS NULL AS mac_null,
       locality_uuid_node(id) IS NULL AS node_null,
       locality_uuid_counter(id) IS NULL AS counter_null,
       locality_uuid_timestamp(id) IS NULL AS ts_null
FROM (VALUES ('20be0ffc-314a-4d53-7a50-013a65ca76d2'::uuid),
             ('00000000-0000-0000-0000-000000000000'::uuid),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS t(id);

-- Strict: NULL in, NULL out.
SELECT locality_uuid_pid(NULL) IS NULL AS pid, locality_uuid_version(NULL) IS NULL AS version;

-- Round trip over a grid of fields, both modes: extraction returns what was composed.
SELECT count(*) AS ids,
       count(*) FILTER (WHERE locality_uuid_counter(u, seq) = c
                          AND locality_uuid_pid(u) = p
                          AND locality_uuid_node(u) = n
                          AND locality_uuid_mac(u) = lpad(to_hex(n), 7, '0')
                          AND locality_uuid_timestamp(u) = ts
                          AND locality_uuid_version(u) = 'b') AS round_trips
FROM (SELECT c, p, n, ts, seq, locality_uuid_make(c, p, n, ts, seq) AS u
      FROM unnest(ARRAY[0, 1, 15, 16, 2147483647, 2147483648, 3488672514, 4294967295]::bigint[]) c,
           unnest(ARRAY[0, 1, 255, 256, 65535]) p,
           unnest(ARRAY[0, 1, 16777215, 16777216, 268435455]) n,
           unnest(ARRAY['1970-01-01+00', '2012-10-15 18:58:18.450+00',
                        '2038-01-19 03:14:08+00', '10889-08-02 05:31:50.655+00']::timestamptz[]) ts,
           unnest(ARRAY[false, true]) seq) s;

-- A version-7 id, as in the Java library's own test: no b-layout fields.
SELECT locality_uuid_version(u) AS version, locality_uuid_pid(u) AS pid,
       locality_uuid_timestamp(u) AS ts, locality_uuid_mac(u) AS mac
FROM (VALUES ('20be0ffc-314a-7d53-7a50-013a65ca76d2'::uuid)) AS t(u);

-- Java's nibble-6 bug: for counter 0x80000000 the Java library writes 000000f8 where the
-- true variable-mode digits are 00000008. Here the true digits are made, and a Java-made id
-- decodes with bits 24..27 of the counter read as 1111; the other fields are exact.
SELECT left(locality_uuid_make(2147483648, 1, 1, '2012-10-15 18:58:18.450+00')::text, 8) AS made_here,
       to_hex(locality_uuid_counter('000000f8-0001-b000-0001-013a65ca76d2')) AS java_made_counter,
       locality_uuid_pid('000000f8-0001-b000-0001-013a65ca76d2') AS java_made_pid,
       locality_uuid_timestamp('000000f8-0001-b000-0001-013a65ca76d2') AS java_made_ts;
