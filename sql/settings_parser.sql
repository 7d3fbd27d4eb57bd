-- One table of setting strings, with the same expected output for the C extension and the
-- portable SQL edition: both read locality_uuid.node_id as PostgreSQL reads an integer setting
-- (hex, octal, fractions rounded half to even, exponents, white space, -1 .. 268435455),
-- locality_uuid.counter_mode as an enum setting, and locality_uuid.machine_name as text. The
-- outcome is what SET and the next generated id give together: the C extension refuses a bad
-- string at SET, the portable edition at the id, with the same SQLSTATE, message and hint.
-- The empty string is left out: the portable edition reads it as the default, since it is
-- what RESET leaves in a setting that no module defines (docs/portable.md). So is '0b11':
-- PostgreSQL reads integers with the C library's strtol, which takes a 0b prefix from glibc
-- 2.38 on (Debian 13) and not before.
SET timezone = 'UTC';
-- The C extension defines its settings when its library loads, at its first call.
SELECT locality_uuid_version(locality_uuid()) AS version;

-- What the ids made after SET name = setting show: for locality_uuid.node_id their node field
-- ('default' for the node of -1), for locality_uuid.counter_mode the counter mode of two
-- consecutive ids (sequential: counters 1 apart; variable: 198491317 apart); or the error of
-- the SET or of the ids.
CREATE FUNCTION pg_temp.outcome_after(name text, setting text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    default_node integer;
    a uuid;
    b uuid;
    hint text;
BEGIN
    PERFORM set_config(name, CASE name WHEN 'locality_uuid.node_id' THEN '-1' ELSE 'variable' END, false);
    default_node := locality_uuid_node(locality_uuid());
    PERFORM set_config(name, setting, false);
    a := locality_uuid();
    b := locality_uuid();
    IF name = 'locality_uuid.node_id' THEN
        RETURN CASE WHEN locality_uuid_node(a) = default_node THEN 'default' ELSE locality_uuid_node(a)::text END;
    END IF;
    RETURN CASE WHEN locality_uuid_counter(b, true) - locality_uuid_counter(a, true) = 1 THEN 'sequential'
                WHEN (locality_uuid_counter(b) - locality_uuid_counter(a) + 4294967296) % 4294967296 = 198491317
                    THEN 'variable'
                ELSE 'neither' END;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ': ' || SQLERRM || CASE WHEN hint <> '' THEN ' (' || hint || ')' ELSE '' END;
END
$$;

SELECT n, to_json(s) AS setting, pg_temp.outcome_after('locality_uuid.node_id', s) AS outcome
FROM unnest(ARRAY[
    '0', '7', '268435455', '268435456', '-1', '-2', '+5', '-0', '- 5',
    '0x10', '0X1f', '0xFFFFFFF', '0x10000000', '-0x1', '0x', '0x1g',
    '010', '077', '08', '1_000',
    '5.5', '4.5', '6.5', '5.4', '-1.4', '-1.5', '0.5', '.5', ' .5', '-.5', '5.', '010.5',
    '268435455.4', '268435455.5',
    '1e3', '1E3', '5.e1', '3e-1', '.5e1', '1e10', '1e400', '1e-400', '5e', '1.5e', 'e5',
    '0x1.8', '0x1.8p1', '0x1p3', '0x.8p1',
    ' 7 ', E'\t7\n', '7 x', '  ', 'abc', '1MB', 'nan', 'Infinity',
    '2147483647', '2147483648', '-2147483649', '4294967296',
    '12345678901234567890', '9223372036854775808', '123456789012345678901234567890.5'
]) WITH ORDINALITY AS t(s, n)
ORDER BY n;
RESET locality_uuid.node_id;

SELECT n, to_json(s) AS setting, pg_temp.outcome_after('locality_uuid.counter_mode', s) AS outcome
FROM unnest(ARRAY['variable', 'sequential', 'SEQUENTIAL', 'Sequential', 'VaRiAbLe', ' sequential',
                  'sequential ', 'seq', 'spread', 'sequential,variable']) WITH ORDINALITY AS t(s, n)
ORDER BY n;
RESET locality_uuid.counter_mode;

-- Any text is a machine name, hashed with MD5 as given.
SELECT n, to_json(s) AS setting,
       hot_uuid_machine(hot_uuid(1)) = substring(decode(md5(s), 'hex') FOR 3) AS md5_of_setting
FROM unnest(ARRAY['db-eu-1', ' db-eu-1 ', 'db-eu-1.example.com', '0x10', '-1']) WITH ORDINALITY AS t(s, n),
     LATERAL (SELECT set_config('locality_uuid.machine_name', s, false)) c
ORDER BY n;
RESET locality_uuid.machine_name;
