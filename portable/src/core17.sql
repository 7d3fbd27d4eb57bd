-- Core's uuid_extract_timestamp and uuid_extract_version, made where the server lacks them
-- (before PostgreSQL 17), as the C extension makes them (17 has them, its
-- uuid_extract_timestamp reading version 1 only: uuidv7_timestamp reads version 7 on every
-- major). In the install schema, since this edition cannot write pg_catalog; core's
-- signatures, labels, comments and results, but for LEAKPROOF, which only a superuser may set.

-- The extractors are single strict expressions, so that the planner inlines them. The key of the
-- selectors is the version digit and the variant digit: NULL unless variant 10 and version 1
-- or 7, else 1 in the version's own terms and 0 in the other's. Times count from 1582-10-15:
-- version 1 in 100 ns units (to the microsecond below, as core), version 7 in milliseconds
-- from 1970-01-01 (141427 days later); each in units of 2^24 and the rest, so that every
-- product of an integer and an interval is exact.
CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_timestamp(uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timezone(interval '0', timestamp '1582-10-15 00:00:00'
        + (('x' || lpad(substr($1::text, 16, 3) || substr($1::text, 10, 4) || left($1::text, 8), 16, '0'))::bit(64)::bigint / 10 >> 24)
          * ('{"18": 1, "19": 1, "1a": 1, "1b": 1, "78": 0, "79": 0, "7a": 0, "7b": 0}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '16.777216 seconds'
        + (('x' || lpad(substr($1::text, 16, 3) || substr($1::text, 10, 4) || left($1::text, 8), 16, '0'))::bit(64)::bigint / 10 & 16777215)
          * ('{"18": 1, "19": 1, "1a": 1, "1b": 1, "78": 0, "79": 0, "7a": 0, "7b": 0}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '1 microsecond'
        + ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
           ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '141427 days'
        + ('x' || left($1::text, 6))::bit(24)::integer
          * ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '16777.216 seconds'
        + ('x' || substr($1::text, 7, 2) || substr($1::text, 10, 4))::bit(24)::integer
          * ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '1 millisecond');

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'extract timestamp from UUID';

CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_version(uuid)
RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr($1::text, 15, 1) || ('{"8": "", "9": "", "a": "", "b": ""}'::jsonb ->> substr($1::text, 20, 1)))::bit(4)::integer::smallint;

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'extract version from RFC 9562 UUID';

