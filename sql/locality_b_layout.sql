-- Exact vectors of docs/format.md, section 1, built field by field with locality_uuid_make.
SET timezone = 'UTC';

SELECT v.text, u AS made, u = v.text::uuid AS matches
FROM (VALUES
    (3488672514, 12618, x'0d537a50'::int, '2012-10-15 18:58:18.450+00'::timestamptz, false,
     '20be0ffc-314a-bd53-7a50-013a65ca76d2'),
    (198491317, 0, 0, '2012-10-15 18:58:18.450+00', false,
     '5bcb4db0-0000-b000-0000-013a65ca76d2'),
    (305419896, 1234, x'056789ab'::int, '2024-12-31 23:59:59.999+00', false,
     '87654321-04d2-b567-89ab-01941f297bff'),
    (2147483648, 4660, x'0d9e1573'::int, '2001-09-09 01:46:40+00', true,
     '80000000-1234-bd9e-1573-00e8d4a51000'),
    (28857408, 12618, x'0d537a50'::int, '2012-10-15 18:58:18.450+00', true,
     '01b85440-314a-bd53-7a50-013a65ca76d2')
) AS v(counter, pid, node, ts, sequential, text),
LATERAL locality_uuid_make(v.counter, v.pid, v.node, v.ts, v.sequential) AS u;

-- Named notation, and the default (variable) mode.
SELECT locality_uuid_make(counter => 0, pid => 0, node => 0, ts => '1970-01-01 00:00:00+00');
SELECT locality_uuid_make(counter => 1, pid => 0, node => 0, ts => '1970-01-01 00:00:00+00');
SELECT locality_uuid_make(counter => 1, pid => 0, node => 0, ts => '1970-01-01 00:00:00+00',
                          sequential => true);

-- Field boundaries: every field at its maximum, time at its last millisecond.
SELECT locality_uuid_make(4294967295, 65535, 268435455, '10889-08-02 05:31:50.655+00');

-- Time is truncated to the millisecond, never rounded.
SELECT locality_uuid_make(0, 0, 0, '2012-10-15 18:58:18.4509+00')
     = locality_uuid_make(0, 0, 0, '2012-10-15 18:58:18.450+00') AS truncated;

-- Version digit b sits in byte 6; no RFC variant bits are forced in byte 8.
SELECT substr(locality_uuid_make(0, 0, 268435455, '1970-01-01+00')::text, 15, 6) AS node_digits;
