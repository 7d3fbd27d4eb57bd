# Every generator the reliability tests exercise: sourced, not run. Both block generators
# on a sequence share one, as several tables sharing a sequence would.
# One entry per line: "name|SQL expression". The expression is usable as a column DEFAULT
# and in a SELECT list; it may use objects made by GENERATOR_SETUP. A new generator is one
# more line here: load, dump/restore and restart tests pick it up.

# Objects the expressions need, created once per database before any table.
GENERATOR_SETUP="CREATE SEQUENCE IF NOT EXISTS rel_shared_seq;"

GENERATORS=(
	"locality_variable|locality_uuid(false)"
	"locality_sequential|locality_uuid(true)"
	"locality_setting|locality_uuid()"
	"block_seq|uuid_sequence_nextval('rel_shared_seq'::regclass)"
	"block_seq_small|uuid_sequence_nextval('rel_shared_seq'::regclass, 100, 256)"
	"block_time|uuid_time_nextval()"
	"block_time_short|uuid_time_nextval(1, 16)"
	"block_time_ms|uuid_time_nextval('100 ms'::interval, 16777216)"
	"hot_keys|hot_uuid(floor(random() * 4)::bigint)"
	"hot_at|hot_uuid(floor(random() * 4)::bigint, now())"
)

# gen_name ENTRY / gen_expr ENTRY: the two fields of an entry.
gen_name() { echo "${1%%|*}"; }
gen_expr() { echo "${1#*|}"; }
