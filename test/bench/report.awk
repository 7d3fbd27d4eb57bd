# Turn the benchmark's raw.csv into the CSV tables, plot data and results.md.
# Usage: awk -F, -v out=DIR -f report.awk DIR/raw.csv
# Ratios are to baselines measured in the same run: gen_random_uuid() for cost, the perfectly
# sequential uuid (seq_uuid) of the same phase for locality.

# median of the n values v[key, 1..n]
function median(key, n,    i, j, t, a) {
	for (i = 1; i <= n; i++)
		a[i] = v[key, i] + 0
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# ratio a / b as "1.23x", or "n/a" without a base
function ratio(a, b) {
	if (b == 0)
		return (a == 0) ? "1.00x" : "n/a"
	return sprintf(r_fmt(a / b), a / b)
}

function r_fmt(r) {
	return (r >= 100) ? "%.0fx" : (r >= 10) ? "%.1fx" : "%.2fx"
}

# ratio of blocks read: "n/a" when the baseline read fewer than 100 (PostgreSQL 16 and later do
# not count new pages of an index as reads, so an appending index reads almost none)
function rratio(a, b) {
	return (b < 100) ? "n/a" : ratio(a, b)
}

# number with sensible precision
function num(x) {
	if (x < 0 && x > -0.005) x = 0
	return (x >= 1000 || x <= -1000) ? sprintf("%.0f", x) : (x >= 10 || x <= -10) ? sprintf("%.1f", x) : sprintf("%.2f", x)
}

# a field list from field i on, joined with commas (labels may hold commas)
function rest(i,    s) {
	s = $i
	for (i++; i <= NF; i++)
		s = s "," $i
	return s
}

# one target row: result is "met" or "missed by ..."
function target(what, gen, measured, shown, limit, limit_shown, upper,    ok, res, by) {
	ok = upper ? (measured <= limit) : (measured >= limit)
	if (ok)
		res = "met"
	else if (limit != 0 && upper && measured / limit >= 2)
		res = sprintf("**missed**: " r_fmt(measured / limit) " the limit", measured / limit)
	else if (limit != 0 && (by = (upper ? measured / limit - 1 : 1 - measured / limit) * 100) < 0.5)
		res = "**missed** by less than 1 %"
	else if (limit != 0)
		res = sprintf("**missed** by %.0f %%", by)
	else
		res = "**missed**"
	printf "| %s | %s | %s | %s %s | %s |\n", what, gen, shown, upper ? "<=" : ">=", limit_shown, res >> md
	printf "\"%s\",\"%s\",%s,%s,%s\n", what, gen, measured, limit, ok ? "met" : "missed" >> tcsv
}

$1 == "meta" { meta[$2] = rest(3) }
$1 == "peer" { peers[++npeer] = $2 ": " rest(3) }
$1 == "skip" { skipped[++nskip] = "`" $3 "` (" $2 "): " rest(4) }
$1 == "cost" {
	if (!($3 in ncost)) { corder[++nc] = $3; ncost[$3] = 0 }
	v[$3, ++ncost[$3]] = $4
}
$1 == "ccost" {
	k = "cc" $2 SUBSEP $4
	if (!(k in ncc)) { ncc[k] = 0; if (!($4 in ccseen)) { ccorder[++ncco] = $4; ccseen[$4] = 1 } }
	if ($2 != 1) ccn = $2
	v[k, ++ncc[k]] = $5
}
$1 == "mono" { morder[++nm] = $2; mids[$2] = $3; mout[$2] = $4; meq[$2] = $5 }
$1 == "gen" || $1 == "sgen" {
	m = ($1 == "gen") ? "b" : "s"
	gorder[m, ++ng[m]] = $2; class[$2] = $3; gtype[$2] = $4; label[$2] = rest(6)
}
$1 == "batch" || $1 == "sbatch" {
	m = ($1 == "batch") ? "b" : "s"
	g = $2; n = $5; secs = $6 - $7; wal = $9 - $8; fpi = $11 - $10; ird = $13 - $12
	rows[m, g] += n; isecs[m, g] += secs; iwal[m, g] += wal; ifpi[m, g] += fpi; iird[m, g] += ird; isz[m, g] = $14
	lsn[m, g] += $16 - $15
	nbatch[m, g]++
	bk[m, g, nbatch[m, g]] = sprintf("%.0f %.3f %.2f %.3f %.3f %.0f", $4, $14 / 1048576, wal / n, fpi * 1000 / n, ird * 1000 / n, n / (secs > 0 ? secs : 1))
}
$1 == "final" || $1 == "sfinal" {
	m = ($1 == "final") ? "b" : "s"
	density[m, $2] = $5; frag[m, $2] = $6; leafp[m, $2] = $7
}
$1 == "conc" || $1 == "sconc" {
	m = ($1 == "conc") ? "b" : "s"
	g = $2; n = $4
	crows[m, g] += n; csecs[m, g] += $5 - $6; cwal[m, g] += $8 - $7; cfpi[m, g] += $10 - $9; cird[m, g] += $12 - $11
	if (!((m, g) in cisz0)) cisz0[m, g] = $13
	cisz1[m, g] = $14
	clsn[m, g] += $16 - $15
}
$1 == "concfinal" || $1 == "sconcfinal" {
	m = ($1 == "concfinal") ? "b" : "s"
	cdensity[m, $2] = $3; cfrag[m, $2] = $4
}

# locality_table MODE CSV: the bulk table of one phase (b: main, s: short sessions), in CSV and,
# where the phase has its baseline, in results.md
function locality_table(m, f,    s, i, g) {
	s = "seq_uuid"
	print "generator,label,class,rows,insert_s,rows_per_s,wal_bytes_per_row,wal_lsn_bytes_per_row,fpi_per_1000_rows,idx_blks_read,index_bytes,leaf_density,leaf_fragmentation,leaf_pages,wal_ratio,fpi_ratio,idx_blks_read_ratio,index_size_ratio,leaf_density_ratio,insert_time_ratio" > f
	if (rows[m, s])
		print "| generator | kind | WAL B/row | x | FPI /1000 rows | index blocks read | x | index MB | x | leaf density % | leaf frag. % | insert s | x |\n" \
			"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" >> md
	for (i = 1; i <= ng[m]; i++) {
		g = gorder[m, i]
		if (!rows[m, g]) continue
		walr[m, g] = iwal[m, g] / rows[m, g]; fpik[m, g] = ifpi[m, g] * 1000 / rows[m, g]
		if (!rows[m, s]) continue
		printf "%s,\"%s\",%s,%.0f,%.2f,%.0f,%.2f,%.2f,%.3f,%.0f,%.0f,%.2f,%.2f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", \
			g, label[g], class[g], rows[m, g], isecs[m, g], rows[m, g] / isecs[m, g], walr[m, g], lsn[m, g] / rows[m, g], fpik[m, g], \
			iird[m, g], isz[m, g], density[m, g], frag[m, g], leafp[m, g], \
			walr[m, g] / walr[m, s], (ifpi[m, s] > 0) ? ifpi[m, g] / ifpi[m, s] : 0, (iird[m, s] > 0) ? iird[m, g] / iird[m, s] : 0, \
			isz[m, g] / isz[m, s], density[m, g] / density[m, s], isecs[m, g] / isecs[m, s] >> f
		printf "| `%s` | %s | %.1f | %s | %s | %.0f | %s | %.1f | %s | %.1f | %.1f | %.1f | %s |\n", label[g], class[g], \
			walr[m, g], ratio(walr[m, g], walr[m, s]), num(fpik[m, g]), iird[m, g], rratio(iird[m, g], iird[m, s]), \
			isz[m, g] / 1048576, ratio(isz[m, g], isz[m, s]), density[m, g], frag[m, g], isecs[m, g], ratio(isecs[m, g], isecs[m, s]) >> md
	}
	if (rows[m, s])
		printf "\n" >> md
}

# conc_table MODE CSV: the concurrent table of one phase, in CSV and in results.md
function conc_table(m, f,    s, i, g) {
	s = "seq_uuid"
	print "generator,label,rows,seconds,tps,wal_bytes_per_row,wal_lsn_bytes_per_row,fpi_per_1000_rows,idx_blks_read,idx_blks_read_per_1000_rows,index_growth_bytes_per_row,leaf_density_after,leaf_fragmentation_after,rows_per_s_ratio,wal_ratio,fpi_ratio,idx_blks_read_ratio,index_growth_ratio" > f
	print "| generator | kind | rows/s | x | WAL B/row | x | FPI /1000 rows | index blocks read /1000 rows | x | index growth B/row | x | leaf density % |\n" \
		"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" >> md
	for (i = 1; i <= ng[m]; i++) {
		g = gorder[m, i]
		if (!crows[m, g]) continue
		tps[m, g] = crows[m, g] / csecs[m, g]; cw[m, g] = cwal[m, g] / crows[m, g]; cf[m, g] = cfpi[m, g] * 1000 / crows[m, g]
		cr[m, g] = cird[m, g] * 1000 / crows[m, g]; cg[m, g] = (cisz1[m, g] - cisz0[m, g]) / crows[m, g]
		printf "%s,\"%s\",%.0f,%.2f,%.0f,%.2f,%.2f,%.3f,%.0f,%.2f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f\n", \
			g, label[g], crows[m, g], csecs[m, g], tps[m, g], cw[m, g], clsn[m, g] / crows[m, g], cf[m, g], cird[m, g], cr[m, g], cg[m, g], \
			cdensity[m, g], cfrag[m, g], tps[m, g] / tps[m, s], cw[m, g] / cw[m, s], (cfpi[m, s] > 0) ? cfpi[m, g] / cfpi[m, s] : 0, \
			(cird[m, s] > 0) ? cird[m, g] / cird[m, s] : 0, (cg[m, s] > 0) ? cg[m, g] / cg[m, s] : 0 >> f
		printf "| `%s` | %s | %.0f | %s | %.1f | %s | %s | %s | %s | %.1f | %s | %.1f |\n", label[g], class[g], tps[m, g], ratio(tps[m, g], tps[m, s]), \
			cw[m, g], ratio(cw[m, g], cw[m, s]), num(cf[m, g]), num(cr[m, g]), rratio(cird[m, g], cird[m, s]), cg[m, g], ratio(cg[m, g], cg[m, s]), cdensity[m, g] >> md
	}
	printf "\n" >> md
}

# plot_data MODE DATFILE LISTFILE: per-batch data, one gnuplot block per generator
function plot_data(m, f, gl,    i, j, g) {
	printf "" > f
	printf "" > gl
	for (i = 1; i <= ng[m]; i++) {
		g = gorder[m, i]
		if (!nbatch[m, g]) continue
		printf "%s|%s|%s|%s\n", g, class[g], gtype[g], label[g] >> gl
		printf "# %s\n", g >> f
		for (j = 1; j <= nbatch[m, g]; j++)
			print bk[m, g, j] >> f
		printf "\n\n" >> f
	}
}

# ours: a generator of this extension (cost names; uuidv7() and uuidv4() are ours when their
# name carries no source in brackets, that is on 15 to 17)
function ours(c) {
	return c !~ /\(/ || c ~ /^(locality_uuid|hot_uuid|uuid_sequence_nextval|uuid_time_nextval|uuid_time_nextval_interval|uuidv7|uuidv7_ordered|uuidv4)\(/ && c !~ /\) \(/
}

# v7: this extension's version 7 generators (cost names), whose limit with N clients is 0.2x
function v7(c) {
	return c == "uuidv7()" || c == "uuidv7_ordered()"
}

END {
	md = out "/results.md"
	tcsv = out "/targets.csv"
	printf "" > md
	print "target,generator,measured,limit,result" > tcsv

	printf "Machine: %s; PostgreSQL %s; %s; load average %s at start, %s at end; %s s in all.\n\n", \
		meta["machine"], meta["postgres"], meta["date"], meta["load_at_start"], meta["load_at_end"], meta["seconds"] >> md
	printf "locality_uuid in shared_preload_libraries: %s; generator state (`locality_uuid_state()`): %s.\n\n", \
		meta["preload"], (meta["state"] != "") ? meta["state"] : "per backend (this version has no locality_uuid_state())" >> md
	if (meta["v7_owner"] == "ours")
		printf "`uuidv7()` and `uuidv4()` are this extension's (in pg_catalog, as on 15 to 17): named without a source, of kind ordered in the locality tables.\n\n" >> md
	else if (meta["v7_owner"] == "core")
		printf "`uuidv7()` and `uuidv4()` are PostgreSQL's own (built in from 18): named `%s` and `%s`, peers.\n\n", meta["v7_name"], meta["v4_name"] >> md
	if (npeer) {
		printf "Peers:" >> md
		for (i = 1; i <= npeer; i++)
			printf "%s %s", (i > 1) ? ";" : "", peers[i] >> md
		if (meta["pg_uuidv7_version"] != "") printf "; pg_uuidv7 version %s", meta["pg_uuidv7_version"] >> md
		if (meta["sequential_uuids_version"] != "") printf "; sequential_uuids version %s (in a database of its own)", meta["sequential_uuids_version"] >> md
		printf ".\n\n" >> md
	}
	if (nskip) {
		print "Skipped:\n" >> md
		for (i = 1; i <= nskip; i++)
			printf "- %s\n", skipped[i] >> md
		printf "\n" >> md
	}

	# --- generation cost -------------------------------------------------------------------
	if (nc > 0) {
		floor_ns = median("floor", ncost["floor"])
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			med[c] = median(c, ncost[c])
			above[c] = med[c] - floor_ns
		}
		base = above["gen_random_uuid()"]
		printf "### Generation cost, one backend\n\n" >> md
		printf "`SELECT count(f()) FROM generate_series(1, %.0f)`, median of %.0f runs, minus the floor `count(x)` (%.1f ns per row). Names with a source in brackets are peers.", \
			meta["cost_calls"], meta["cost_runs"], floor_ns >> md
		if (meta["portable_schema"] != "" && ((meta["portable_schema"] ".locality_uuid(true)") in ncost))
			printf " Names in schema `%s` are the portable SQL edition's generators, called schema-qualified in the same database and the same rounds; being slow, they ran %.0f calls a measurement.", \
				meta["portable_schema"], (meta["cost_calls"] / meta["portable_div"] > 1000) ? meta["cost_calls"] / meta["portable_div"] : (meta["cost_calls"] < 1000 ? meta["cost_calls"] : 1000) >> md
		printf "\n\n" >> md
		print "| generator | ns per call above the floor | ratio to gen_random_uuid() |" >> md
		print "| --- | ---: | ---: |" >> md
		f = out "/cost.csv"
		print "generator,ns_per_call_total,ns_per_call_above_floor,ratio_to_gen_random_uuid,runs" > f
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			printf "\"%s\",%.2f,%.2f,%.4f,%.0f\n", c, med[c], above[c], (base > 0) ? above[c] / base : 0, ncost[c] >> f
			if (c == "floor") continue
			printf "| `%s` | %.1f | %s |\n", c, above[c], ratio(above[c], base) >> md
		}
		printf "\n" >> md
	}

	# --- concurrent cost ---------------------------------------------------------------------
	if (ncco > 0) {
		k1 = "cc1" SUBSEP; kn = "cc" ccn SUBSEP
		fl1 = median(k1 "floor", ncc[k1 "floor"]); fln = median(kn "floor", ncc[kn "floor"])
		for (i = 1; i <= ncco; i++) {
			c = ccorder[i]
			a1[c] = median(k1 c, ncc[k1 c]) - fl1
			an[c] = median(kn c, ncc[kn c]) - fln
		}
		printf "### Generation cost, 1 and %s clients\n\n", ccn >> md
		printf "pgbench clients, each running `SELECT count(f()) FROM generate_series(1, 20000)` (%s calls a client), median of %s runs; ns per call is 10^9 / (calls per second of all clients together), minus the same figure of the floor `count(x)` (%.1f ns with 1 client, %.1f ns with %s). With more clients than cores (%s here) the figures are machine throughput, not latency; the ratios show what contention costs.", \
			meta["cc_calls"], meta["cc_runs"], fl1, fln, ccn, substr(meta["machine"], 1, index(meta["machine"], " ") - 1) >> md
		if (meta["portable_schema"] != "" && ((meta["portable_schema"] ".locality_uuid(true)") in ccseen))
			printf " The portable edition (`%s`) ran 1/%s as many calls, 2000 a transaction; each client's first calls compile its PL/pgSQL functions and make its session state (four temporary sequences), which is counted in.", \
				meta["portable_schema"], meta["portable_cc_div"] >> md
		printf "\n\n" >> md
		printf "| generator | 1 client: ns per call | ratio to gen_random_uuid() | %s clients: ns per call | ratio to gen_random_uuid() |\n| --- | ---: | ---: | ---: | ---: |\n", ccn >> md
		f = out "/cost_concurrent.csv"
		printf "generator,ns_per_call_1_client,ratio_1_client,ns_per_call_%s_clients,ratio_%s_clients\n", ccn, ccn > f
		cp = out "/cost_plot.dat"
		printf "" > cp
		for (i = 1; i <= ncco; i++) {
			c = ccorder[i]
			if (c == "floor") continue
			r1 = (a1["gen_random_uuid()"] > 0) ? a1[c] / a1["gen_random_uuid()"] : 0
			rn = (an["gen_random_uuid()"] > 0) ? an[c] / an["gen_random_uuid()"] : 0
			printf "\"%s\",%.2f,%.4f,%.2f,%.4f\n", c, a1[c], r1, an[c], rn >> f
			printf "| `%s` | %.1f | %s | %.1f | %s |\n", c, a1[c], ratio(a1[c], a1["gen_random_uuid()"]), an[c], ratio(an[c], an["gen_random_uuid()"]) >> md
			# plot: name|one-backend ratio|1-client ratio|N-client ratio|peer?
			printf "%s|%.4f|%.4f|%.4f|%s\n", c, (base > 0 && (c in above)) ? above[c] / base : 0, r1, rn, ours(c) ? "ours" : "other" >> cp
		}
		printf "\n" >> md
	}

	# --- monotonicity ------------------------------------------------------------------------
	if (nm > 0) {
		printf "### Order within one backend\n\n" >> md
		printf "Ids made one after another by one backend (`SELECT f() FROM generate_series(1, %s)`): adjacent pairs whose second id sorts before the first, and equal pairs. A figure, not a verdict.\n\n", meta["mono_ids"] >> md
		print "| generator | ids | pairs out of order | equal pairs |\n| --- | ---: | ---: | ---: |" >> md
		f = out "/monotonic.csv"
		print "generator,ids,out_of_order_pairs,equal_pairs" > f
		for (i = 1; i <= nm; i++) {
			c = morder[i]
			printf "| `%s` | %.0f | %.0f | %.0f |\n", c, mids[c], mout[c], meq[c] >> md
			printf "\"%s\",%.0f,%.0f,%.0f\n", c, mids[c], mout[c], meq[c] >> f
		}
		printf "\n" >> md
	}

	# --- locality, bulk and concurrent ---------------------------------------------------------
	if (ng["b"] > 0) {
		printf "### B-tree locality, bulk load\n\n" >> md
		printf "%.0f rows per generator into a fresh table with a primary key, `INSERT ... SELECT` in batches of %.0f rows from one session with a `CHECKPOINT` after each, shared_buffers %.0f MB. Ratios (x) are to the perfectly sequential uuid of the same run, `lpad(to_hex(nextval(s)), 32, '0')::uuid`, whose every key is greater than all before it. Kinds: baseline; peer (another project's generator); spread (keys land all over the key space); ordered (appended at the right edge); block (random within a block whose prefix advances); portable (this extension's portable SQL edition in schema `%s`: its ordered and block generators, the same formats).\n\n", \
			meta["rows"], meta["batch"], meta["shared_buffers_mb"], meta["portable_schema"] >> md
		locality_table("b", out "/locality.csv")
		printf "Index blocks read is `idx_blks_read` of `pg_statio_user_indexes`: pages not found in shared_buffers; on PostgreSQL 15 also the new pages added to the index, which later majors do not count as reads (so an index that only appends reads almost none there, and its ratio is n/a).\n" >> md
		if (meta["time_interval"] != "")
			printf "The tuned time generator is `%s`: %s; the sequential baseline loaded %s rows per second of wall clock, CHECKPOINTs included; about %s rows fit in shared_buffers.\n", \
				meta["time_interval"], meta["time_interval_how"], meta["time_interval_rate"], meta["time_interval_fit_rows"] >> md
		advice = out "/advice.txt"
		first = 1
		while ((getline line < advice) > 0) {
			if (first) printf "\n`locality_uuid_block_advice()` for that rate:\n\n```\n" >> md
			first = 0
			print line >> md
		}
		if (!first) printf "```\n" >> md
		printf "\n" >> md
	}
	if (crows["b", "seq_uuid"]) {
		printf "### B-tree locality, concurrent\n\n" >> md
		printf "Then %.0f pgbench clients insert %.0f more rows into the same table, one row per transaction (the column `DEFAULT` is the generator), `CHECKPOINT` every %.0f rows. Leaf density is of the whole index afterwards.\n\n", \
			meta["clients"], meta["conc_rows"], meta["batch"] >> md
		conc_table("b", out "/concurrent.csv")
	}

	# --- short sessions ----------------------------------------------------------------------
	if (ng["s"] > 0) {
		printf "### Short sessions, bulk load\n\n" >> md
		printf "%.0f rows per generator into a fresh table, `INSERT ... SELECT` of %.0f rows per batch, each batch in a new connection (`pgbench -C`, 1 client), `CHECKPOINT` every %.0f rows, shared_buffers %.0f MB. Ratios are to the sequential uuid of this phase. The portable edition is not run in short sessions.\n\n", \
			meta["short_rows"], meta["short_batch"], meta["short_checkpoint"], meta["shared_buffers_mb"] >> md
		locality_table("s", out "/short.csv")
	}
	if (crows["s", "seq_uuid"]) {
		printf "### Short sessions, pgbench -C\n\n" >> md
		printf "Then %.0f clients of `pgbench -C` (a new connection for every transaction) insert %.0f more rows into the same table, %.0f rows per transaction (`VALUES (DEFAULT), ...`), `CHECKPOINT` every %.0f rows. Leaf density is of the whole index afterwards.\n\n", \
			meta["clients"], meta["short_conc_rows"], meta["short_conc_per"], meta["short_checkpoint"] >> md
		conc_table("s", out "/short_concurrent.csv")
	}

	# --- targets (this extension's generators only) ------------------------------------------
	printf "### Targets\n\nFor this extension's generators; peers, baselines and the portable edition have none. Printed, not enforced: the benchmark passes or fails nothing.\n\n| target | generator | measured | limit | result |\n| --- | --- | ---: | ---: | --- |\n" >> md
	if (nc > 0 && base > 0) {
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			# uuidv4() is a figure: no target is set for it.
			if (c == "floor" || c == "gen_random_uuid()" || c == "uuid_generate_v4()" || c == "nextval()" || c == "uuidv4()" || !ours(c)) continue
			if (c == "uuid_sequence_nextval()")
				target("cost above floor, ns", "`" c "`", above[c], sprintf("%.1f ns", above[c]), \
					above["nextval()"] + 0.1 * base, sprintf("%.1f ns (nextval + 0.1x)", above["nextval()"] + 0.1 * base), 1)
			else
				target("cost, ratio to gen_random_uuid()", "`" c "`", above[c] / base, ratio(above[c], base), 0.1, "0.10x", 1)
		}
	}
	if (ncco > 0 && a1["gen_random_uuid()"] > 0 && an["gen_random_uuid()"] > 0) {
		for (i = 1; i <= ncco; i++) {
			c = ccorder[i]
			if (!(c ~ /^(locality_uuid|hot_uuid)/ || v7(c)) || !ours(c)) continue
			lim = v7(c) ? 0.2 : 0.1
			target("cost, 1 client, ratio to gen_random_uuid()", "`" c "`", a1[c] / a1["gen_random_uuid()"], ratio(a1[c], a1["gen_random_uuid()"]), 0.1, "0.10x", 1)
			target("cost, " ccn " clients, ratio to gen_random_uuid()", "`" c "`", an[c] / an["gen_random_uuid()"], ratio(an[c], an["gen_random_uuid()"]), lim, sprintf("%.2fx", lim), 1)
		}
	}
	s = "seq_uuid"
	for (i = 1; i <= ng["b"]; i++) {
		g = gorder["b", i]
		if (!rows["b", g] || !rows["b", s]) continue
		# uuidv7() is ordered per backend only: the cluster-wide variant, uuidv7_ordered(), has the targets.
		if (class[g] == "ordered" && g != "uuidv7") {
			target("bulk: WAL per row, ratio to sequential", "`" label[g] "`", walr["b", g] / walr["b", s], ratio(walr["b", g], walr["b", s]), 1.02, "1.02x", 1)
			target("bulk: full-page images per 1000 rows", "`" label[g] "`", fpik["b", g], num(fpik["b", g]), 0.1, "0.1", 1)
			target("bulk: leaf density %", "`" label[g] "`", density["b", g], sprintf("%.1f", density["b", g]), 88, "88", 0)
		} else if (g == "seq_block" || g == "time_block_tuned" || g == "time_block_paced") {
			target("bulk: WAL per row, ratio to sequential", "`" label[g] "`", walr["b", g] / walr["b", s], ratio(walr["b", g], walr["b", s]), 1.2, "1.20x", 1)
			target("bulk: full-page images per 1000 rows", "`" label[g] "`", fpik["b", g], num(fpik["b", g]), 5, "5", 1)
		}
	}
	# Short sessions: the targets of the generators with cluster-wide state, sequential mode and
	# the ordered version 7.
	split("locality_sequential uuidv7_ordered", cw_gens, " ")
	for (i = 1; i in cw_gens; i++) {
		g = cw_gens[i]
		if (rows["s", g] && rows["s", s]) {
			target("short sessions, bulk: WAL per row, ratio to sequential", "`" label[g] "`", walr["s", g] / walr["s", s], ratio(walr["s", g], walr["s", s]), 1.02, "1.02x", 1)
			target("short sessions, bulk: full-page images per 1000 rows", "`" label[g] "`", fpik["s", g], num(fpik["s", g]), 0.1, "0.1", 1)
			target("short sessions, bulk: leaf density %", "`" label[g] "`", density["s", g], sprintf("%.1f", density["s", g]), 88, "88", 0)
		}
		if (crows["s", g] && crows["s", s]) {
			target("short sessions, pgbench -C: WAL per row, ratio to sequential", "`" label[g] "`", cw["s", g] / cw["s", s], ratio(cw["s", g], cw["s", s]), 1.02, "1.02x", 1)
			target("short sessions, pgbench -C: full-page images per 1000 rows", "`" label[g] "`", cf["s", g], num(cf["s", g]), 0.1, "0.1", 1)
			target("short sessions, pgbench -C: leaf density % of the whole index", "`" label[g] "`", cdensity["s", g], sprintf("%.1f", cdensity["s", g]), 88, "88", 0)
		}
	}
	# The tuned time generator with a new session per batch (sub-second blocks are to hold there too).
	g = "time_block_tuned"
	if (rows["s", g] && rows["s", s]) {
		target("short sessions, bulk: WAL per row, ratio to sequential", "`" label[g] "`", walr["s", g] / walr["s", s], ratio(walr["s", g], walr["s", s]), 1.2, "1.20x", 1)
		target("short sessions, bulk: full-page images per 1000 rows", "`" label[g] "`", fpik["s", g], num(fpik["s", g]), 5, "5", 1)
	}
	printf "\n" >> md

	# --- plot data ---------------------------------------------------------------------------
	plot_data("b", out "/batches.dat", out "/generators.txt")
	plot_data("s", out "/short_batches.dat", out "/short_generators.txt")
}
