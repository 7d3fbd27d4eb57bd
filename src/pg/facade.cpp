// SQL functions of the keyed façade (uuidv7_to_facade, uuidv7_from_facade) and the setting locality_uuid.facade_key.
#include "glue.hpp"
#include "core/facade.hpp"

extern "C" {
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

PG_FUNCTION_INFO_V1(uuidv7_to_facade_key);
PG_FUNCTION_INFO_V1(uuidv7_from_facade_key);
PG_FUNCTION_INFO_V1(uuidv7_to_facade_setting);
PG_FUNCTION_INFO_V1(uuidv7_from_facade_setting);
}

using namespace locality_uuid;

/*
 * locality_uuid.facade_key: the key as 32 hexadecimal digits, "" for none. Its value must never
 * reach a role that is not a superuser, nor a message: no check hook rejects a value (the server's
 * "invalid value" error quotes it), so the assign hook parses it and the functions report a
 * malformed key, without the value, when they need it. GUC_SUPERUSER_ONLY keeps it from SHOW,
 * current_setting() and pg_settings for other roles, the show hook from members of
 * pg_read_all_settings too, GUC_NO_SHOW_ALL from SHOW ALL.
 */
static char     *setting_facade_key = NULL;
static bool      facade_key_valid = false;
static FacadeKey facade_key_parsed = {0, 0};

// Parse the setting's new value into the key the functions use (runs on SET, RESET and rollback too).
static void
assign_facade_key(const char *newval, void *)
{
	facade_key_valid = newval != NULL &&
		parse_facade_key(newval, strlen(newval), &facade_key_parsed);
	if (!facade_key_valid)
		facade_key_parsed = FacadeKey{0, 0};
}

// Show the key to superusers only; everyone else, a pg_read_all_settings member included, reads "(hidden)".
static const char *
show_facade_key()
{
	if (IsTransactionState() && superuser())
		return setting_facade_key != NULL ? setting_facade_key : "";
	return "(hidden)";
}

namespace locality_uuid
{

void
define_facade_key_setting()
{
	DefineCustomStringVariable("locality_uuid.facade_key",
							   "Key of uuidv7_to_facade(id) and uuidv7_from_facade(facade): 32 hexadecimal digits; empty for none.",
							   "The 16 bytes of the SipHash-2-4 key, k0 then k1, each little-endian, as uuidv47 "
							   "takes them. Only superusers may set or read it.",
							   &setting_facade_key,
							   "",
							   PGC_SUSET,
							   GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							   NULL, assign_facade_key, show_facade_key);
}

} // namespace locality_uuid

// Read a 16-byte bytea key argument, or raise 22023 (naming its length, never its bytes).
static FacadeKey
key_arg(FunctionCallInfo fcinfo, int argno)
{
	bytea      *b = PG_GETARG_BYTEA_PP(argno);
	std::size_t len = VARSIZE_ANY_EXHDR(b);

	if (len != facade_key_len)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("facade key must be 16 bytes, not %zu", len),
				 errdetail("The key is SipHash-2-4's 128 bits: k0 then k1, each little-endian, as uuidv47 takes them.")));
	return facade_key(reinterpret_cast<const uint8_t *>(VARDATA_ANY(b)));
}

// Return the key of locality_uuid.facade_key, or raise 55000 where it is unset or malformed.
static FacadeKey
key_setting()
{
	if (!facade_key_valid)
	{
		bool unset = setting_facade_key == NULL || setting_facade_key[0] == '\0';

		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 unset ? errmsg("locality_uuid.facade_key is not set")
					   : errmsg("locality_uuid.facade_key is not a valid key"),
				 errdetail("The setting must be 32 hexadecimal digits: the 16 bytes of the key, k0 then k1, "
						   "each little-endian."),
				 errhint("Give the key as an argument, or have a superuser set locality_uuid.facade_key.")));
	}
	return facade_key_parsed;
}

// Return the façade of the version 7 id argument 0 (to_facade), or the version 7 id of the
// façade argument 0; raise 22023 for a uuid of another version or variant.
static Datum
facade_datum(FunctionCallInfo fcinfo, FacadeKey key, bool to)
{
	const uint8_t *in = PG_GETARG_UUID_P(0)->data;
	uint8_t        out[uuid_len];

	if (!(to ? to_facade(in, key, out) : from_facade(in, key, out)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(to ? "uuid is not version 7" : "uuid is not a facade"),
				 errdetail(to ? "A facade is made of a version 7 uuid of RFC 9562's variant; this one has "
								"version digit %u and variant bits %u%u."
							  : "A facade is a version 4 uuid of RFC 9562's variant; this one has "
								"version digit %u and variant bits %u%u.",
						   version_nibble(in), in[8] >> 7, (in[8] >> 6) & 1)));
	PG_RETURN_UUID_P(make_uuid(out));
}

// uuidv7_to_facade(id uuid, key bytea) RETURNS uuid
extern "C" Datum
uuidv7_to_facade_key(PG_FUNCTION_ARGS)
{
	return facade_datum(fcinfo, key_arg(fcinfo, 1), true);
}

// uuidv7_from_facade(facade uuid, key bytea) RETURNS uuid
extern "C" Datum
uuidv7_from_facade_key(PG_FUNCTION_ARGS)
{
	return facade_datum(fcinfo, key_arg(fcinfo, 1), false);
}

// uuidv7_to_facade(id uuid) RETURNS uuid
extern "C" Datum
uuidv7_to_facade_setting(PG_FUNCTION_ARGS)
{
	return facade_datum(fcinfo, key_setting(), true);
}

// uuidv7_from_facade(facade uuid) RETURNS uuid
extern "C" Datum
uuidv7_from_facade_setting(PG_FUNCTION_ARGS)
{
	return facade_datum(fcinfo, key_setting(), false);
}
