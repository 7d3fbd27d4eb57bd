# Turn the benchmark's raw.csv into cost.csv, locality.csv, concurrent.csv, plot data and results.md.
# Usage: awk -F, -v out=DIR -f report.awk DIR/raw.csv
# Ratios are to baselines measured in the same run: gen_random_uuid() for cost, the perfectly
# sequential uuid (seq_uuid) for locality.

# median of the n values v[name, 1..n]
function median(name, n,    i, j, t, a) {
	for (i = 1; i <= n; i++)
		a[i] = v[name, i] + 0
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

# number with sensible precision
function num(x) {
	if (x < 0 && x > -0.005) x = 0
	return (x >= 1000 || x <= -1000) ? sprintf("%.0f", x) : (x >= 10 || x <= -10) ? sprintf("%.1f", x) : sprintf("%.2f", x)
}

# one target row: result is "met" or "missed by ..."
function target(what, gen, measured, shown, limit, limit_shown, upper,    ok, by) {
	ok = upper ? (measured <= limit) : (measured >= limit)
	if (ok)
		res = "met"
	else if (limit != 0)
		res = sprintf("**missed** by %.0f %%", (upper ? measured / limit - 1 : 1 - measured / limit) * 100)
	else
		res = "**missed**"
	printf "| %s | %s | %s | %s %s | %s |\n", what, gen, shown, upper ? "<=" : ">=", limit_shown, res >> md
	printf "%s,%s,%s,%s,%s\n", what, gen, measured, limit, ok ? "met" : "missed" >> tcsv
}

$1 == "meta" { meta[$2] = $3; for (i = 4; i <= NF; i++) meta[$2] = meta[$2] "," $i }
$1 == "skip" { skipped[++nskip] = $3 " (" $2 ")" }
$1 == "cost" {
	if (!($3 in ncost)) { corder[++nc] = $3; ncost[$3] = 0 }
	v[$3, ++ncost[$3]] = $4
}
$1 == "gen" { gorder[++ng] = $2; class[$2] = $3; gtype[$2] = $4; label[$2] = $5; for (i = 6; i <= NF; i++) label[$2] = label[$2] "," $i }
$1 == "batch" {
	g = $2; n = $5; secs = $6 - $7; wal = $9 - $8; fpi = $11 - $10; ird = $13 - $12
	rows[g] += n; isecs[g] += secs; iwal[g] += wal; ifpi[g] += fpi; iird[g] += ird; isz[g] = $14
	lsn[g] += $16 - $15
	nbatch[g]++
	bk[g, nbatch[g]] = sprintf("%.0f %.3f %.2f %.3f %.3f %.0f", $4, $14 / 1048576, wal / n, fpi * 1000 / n, ird * 1000 / n, n / (secs > 0 ? secs : 1))
}
$1 == "final" { density[$2] = $5; frag[$2] = $6; leafp[$2] = $7 }
$1 == "conc" {
	g = $2; n = $4
	crows[g] += n; csecs[g] += $5 - $6; cwal[g] += $8 - $7; cfpi[g] += $10 - $9; cird[g] += $12 - $11
	if (!(g in cisz0)) cisz0[g] = $13
	cisz1[g] = $14
	clsn[g] += $16 - $15
}
$1 == "concfinal" { cdensity[$2] = $3; cfrag[$2] = $4 }

END {
	md = out "/results.md"
	tcsv = out "/targets.csv"
	printf "" > md
	print "target,generator,measured,limit,result" > tcsv

	printf "Machine: %s; PostgreSQL %s; %s; load average %s at start, %s at end; %s s in all.\n\n", \
		meta["machine"], meta["postgres"], meta["date"], meta["load_at_start"], meta["load_at_end"], meta["seconds"] >> md
	if (nskip) {
		printf "Skipped (function not installed):" >> md
		for (i = 1; i <= nskip; i++)
			printf "%s %s", (i > 1) ? "," : "", skipped[i] >> md
		printf ".\n\n" >> md
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
		printf "### Generation cost\n\n" >> md
		printf "`SELECT count(f()) FROM generate_series(1, %.0f)`, median of %.0f runs, minus the floor `count(x)` (%.1f ns per row).\n\n", \
			meta["cost_calls"], meta["cost_runs"], floor_ns >> md
		print "| generator | ns per call above the floor | ratio to gen_random_uuid() |" >> md
		print "| --- | ---: | ---: |" >> md
		f = out "/cost.csv"
		print "generator,ns_per_call_total,ns_per_call_above_floor,ratio_to_gen_random_uuid,runs" > f
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			printf "%s,%.2f,%.2f,%.4f,%.0f\n", c, med[c], above[c], (base > 0) ? above[c] / base : 0, ncost[c] >> f
			if (c == "floor") continue
			printf "| `%s` | %.1f | %s |\n", c, above[c], ratio(above[c], base) >> md
		}
		printf "\n" >> md
	}

	# --- locality, bulk ----------------------------------------------------------------------
	s = "seq_uuid"
	f = out "/locality.csv"
	print "generator,label,class,rows,insert_s,rows_per_s,wal_bytes_per_row,wal_lsn_bytes_per_row,fpi_per_1000_rows,idx_blks_read,index_bytes,leaf_density,leaf_fragmentation,leaf_pages,wal_ratio,fpi_ratio,idx_blks_read_ratio,index_size_ratio,leaf_density_ratio,insert_time_ratio" > f
	for (i = 1; i <= ng; i++) {
		g = gorder[i]
		if (!rows[g]) continue
		walr[g] = iwal[g] / rows[g]; fpik[g] = ifpi[g] * 1000 / rows[g]
		printf "%s,\"%s\",%s,%.0f,%.2f,%.0f,%.2f,%.2f,%.3f,%.0f,%.0f,%.2f,%.2f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", \
			g, label[g], class[g], rows[g], isecs[g], rows[g] / isecs[g], walr[g], lsn[g] / rows[g], fpik[g], iird[g], isz[g], \
			density[g], frag[g], leafp[g], \
			walr[g] / walr[s], (ifpi[s] > 0) ? ifpi[g] / ifpi[s] : 0, (iird[s] > 0) ? iird[g] / iird[s] : 0, \
			isz[g] / isz[s], density[g] / density[s], isecs[g] / isecs[s] >> f
	}
	if (ng > 0 && rows[s]) {
		printf "### B-tree locality, bulk load\n\n" >> md
		printf "%.0f rows per generator into a fresh table with a primary key, `INSERT ... SELECT` in batches of %.0f rows with a `CHECKPOINT` after each, shared_buffers %.0f MB. Ratios (x) are to the perfectly sequential uuid of the same run, `lpad(to_hex(nextval(s)), 32, '0')::uuid`, whose every key is greater than all before it. Kinds: baseline; spread (keys land all over the key space); ordered (appended at the right edge); block (random within a block whose prefix advances).\n\n", \
			meta["rows"], meta["batch"], meta["shared_buffers_mb"] >> md
		print "| generator | kind | WAL B/row | x | FPI /1000 rows | index blocks read | x | index MB | x | leaf density % | leaf frag. % | insert s | x |" >> md
		print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" >> md
		for (i = 1; i <= ng; i++) {
			g = gorder[i]
			if (!rows[g]) continue
			printf "| `%s` | %s | %.1f | %s | %s | %.0f | %s | %.1f | %s | %.1f | %.1f | %.1f | %s |\n", label[g], class[g], \
				walr[g], ratio(walr[g], walr[s]), num(fpik[g]), iird[g], ratio(iird[g], iird[s]), \
				isz[g] / 1048576, ratio(isz[g], isz[s]), density[g], frag[g], isecs[g], ratio(isecs[g], isecs[s]) >> md
		}
		printf "\nIndex blocks read is `idx_blks_read` of `pg_statio_user_indexes`: pages not found in shared_buffers, and new pages added to the index.\n" >> md
		if (meta["time_interval"] != "" && meta["time_interval_rate"] == "")
			printf "The tuned `uuid_time_nextval` interval is %s s (set with --time-interval).\n", meta["time_interval"] >> md
		else if (meta["time_interval"] != "")
			printf "The tuned `uuid_time_nextval` interval is %s s: about %s rows fit in shared_buffers, and the sequential baseline loaded %s rows per second of wall clock, CHECKPOINTs included (1 s is the shortest interval there is).\n", \
				meta["time_interval"], meta["time_interval_fit_rows"], meta["time_interval_rate"] >> md
		printf "\n" >> md
	}

	# --- locality, concurrent ----------------------------------------------------------------
	if (crows[s]) {
		f = out "/concurrent.csv"
		print "generator,label,rows,seconds,tps,wal_bytes_per_row,wal_lsn_bytes_per_row,fpi_per_1000_rows,idx_blks_read,idx_blks_read_per_1000_rows,index_growth_bytes_per_row,leaf_density_after,leaf_fragmentation_after,tps_ratio,wal_ratio,fpi_ratio,idx_blks_read_ratio,index_growth_ratio" > f
		printf "### B-tree locality, concurrent\n\n" >> md
		printf "Then %.0f pgbench clients insert %.0f more rows into the same table, one row per transaction (the column `DEFAULT` is the generator), `CHECKPOINT` every %.0f rows. Leaf density is of the whole index afterwards.\n\n", \
			meta["clients"], meta["conc_rows"], meta["batch"] >> md
		print "| generator | kind | TPS | x | WAL B/row | x | FPI /1000 rows | index blocks read /1000 rows | x | index growth B/row | x | leaf density % |" >> md
		print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" >> md
		for (i = 1; i <= ng; i++) {
			g = gorder[i]
			if (!crows[g]) continue
			tps[g] = crows[g] / csecs[g]; cw[g] = cwal[g] / crows[g]; cf[g] = cfpi[g] * 1000 / crows[g]
			cr[g] = cird[g] * 1000 / crows[g]; cg[g] = (cisz1[g] - cisz0[g]) / crows[g]
			printf "%s,\"%s\",%.0f,%.2f,%.0f,%.2f,%.2f,%.3f,%.0f,%.2f,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f\n", \
				g, label[g], crows[g], csecs[g], tps[g], cw[g], clsn[g] / crows[g], cf[g], cird[g], cr[g], cg[g], cdensity[g], cfrag[g], \
				tps[g] / tps[s], cw[g] / cw[s], (cfpi[s] > 0) ? cfpi[g] / cfpi[s] : 0, (cird[s] > 0) ? cird[g] / cird[s] : 0, \
				(cg[s] > 0) ? cg[g] / cg[s] : 0 >> f
		}
		for (i = 1; i <= ng; i++) {
			g = gorder[i]
			if (!crows[g]) continue
			printf "| `%s` | %s | %.0f | %s | %.1f | %s | %s | %s | %s | %.1f | %s | %.1f |\n", label[g], class[g], tps[g], ratio(tps[g], tps[s]), \
				cw[g], ratio(cw[g], cw[s]), num(cf[g]), num(cr[g]), ratio(cr[g], cr[s]), cg[g], ratio(cg[g], cg[s]), cdensity[g] >> md
		}
		printf "\n" >> md
	}

	# --- targets ---------------------------------------------------------------------------
	printf "### Targets\n\n| target | generator | measured | limit | result |\n| --- | --- | ---: | ---: | --- |\n" >> md
	if (nc > 0 && base > 0) {
		for (i = 1; i <= nc; i++) {
			c = corder[i]
			if (c == "floor" || c == "gen_random_uuid()" || c == "uuid_generate_v4()" || c == "nextval()") continue
			if (c == "uuid_sequence_nextval()")
				target("cost above floor, ns", "`" c "`", above[c], sprintf("%.1f ns", above[c]), \
					above["nextval()"] + 0.1 * base, sprintf("%.1f ns (nextval + 0.1x)", above["nextval()"] + 0.1 * base), 1)
			else
				target("cost, ratio to gen_random_uuid()", "`" c "`", above[c] / base, ratio(above[c], base), 0.1, "0.10x", 1)
		}
	}
	for (i = 1; i <= ng; i++) {
		g = gorder[i]
		if (!rows[g] || !rows[s]) continue
		if (class[g] == "ordered") {
			target("WAL per row, ratio to sequential", "`" label[g] "`", walr[g] / walr[s], ratio(walr[g], walr[s]), 1.02, "1.02x", 1)
			target("full-page images per 1000 rows", "`" label[g] "`", fpik[g], num(fpik[g]), 0.1, "0.1", 1)
			target("leaf density %", "`" label[g] "`", density[g], sprintf("%.1f", density[g]), 88, "88", 0)
		} else if (g == "seq_block" || g == "time_block_tuned" || g == "time_block_paced") {
			target("WAL per row, ratio to sequential", "`" label[g] "`", walr[g] / walr[s], ratio(walr[g], walr[s]), 1.2, "1.20x", 1)
			target("full-page images per 1000 rows", "`" label[g] "`", fpik[g], num(fpik[g]), 5, "5", 1)
		}
	}
	printf "\n" >> md

	# --- plot data ---------------------------------------------------------------------------
	# batches.dat: one block per generator (gnuplot index i): rows, index MB, WAL B/row, FPI/1000, reads/1000, rows/s
	f = out "/batches.dat"
	printf "" > f
	gl = out "/generators.txt"
	printf "" > gl
	for (i = 1; i <= ng; i++) {
		g = gorder[i]
		if (!nbatch[g]) continue
		printf "%s|%s|%s|%s\n", g, class[g], gtype[g], label[g] >> gl
		printf "# %s\n", g >> f
		for (j = 1; j <= nbatch[g]; j++)
			print bk[g, j] >> f
		printf "\n\n" >> f
	}
}
