#!/usr/bin/env bash
# Draw the benchmark's plots with gnuplot from the files report.awk wrote in OUTDIR: keyspace.png,
# keyspace-zoom.png, wal.png, and short.png and cost.png when there is data.
# Usage: bash test/bench/plot.sh OUTDIR
set -euo pipefail
cd "$1"
[ -s generators.txt ] || { echo "plot.sh: no generators.txt in $1" >&2; exit 1; }
meta() { awk -F, -v k="$1" '$1 == "meta" && $2 == k { print $3 }' raw.csv; }
SB=$(meta shared_buffers_mb) ROWS=$(meta rows)
# gp NAME: write standard input to NAME.gp and run gnuplot on it, its complaints in NAME.gp.log
# (a constant first 32 bits, the sequential baseline's, only draws a warning about the y range).
gp() { cat >"$1.gp" && gnuplot "$1.gp" 2>"$1.gp.log" || { cat "$1.gp.log" >&2; return 1; }; }

# Key space: one panel per uuid generator, first 32 bits of the key against the row number.
keys=()
while IFS='|' read -r name class _ label; do
	[ -s "keys_$name.dat" ] && keys+=("$name|$class|$label")
done <generators.txt
rows=$(((${#keys[@]} + 2) / 3))
for png in keyspace keyspace-zoom; do
	{
		echo "set terminal pngcairo noenhanced size 1200,$((rows * 300 + 50)) font 'DejaVu Sans,10'"
		echo "set output '$png.png'"
		if [ $png = keyspace ]; then
			echo "set multiplot layout $rows,3 title 'Where new keys land: first 32 bits of each key, as a fraction of the key space, in insertion order ($ROWS rows, random sample)' font ',12'"
			echo "set yrange [-0.04:1.04]; set ytics 0.25; set format y '%.2f'"
		else
			echo "set multiplot layout $rows,3 title 'The same, each panel zoomed to its own range (first 32 bits in hex)' font ',12'"
			echo "set format y '%08x'"
		fi
		echo "set datafile separator ','"
		echo "set xlabel 'row number (millions)' offset 0,0.5; set grid; unset key"
		echo "set format x '%g'; set xrange [0:$ROWS/1e6]"
		for k in "${keys[@]}"; do
			IFS='|' read -r name class label <<<"$k"
			case $class in baseline) color='#555555' ;; peer) color='#d95f02' ;; portable) color='#1b9e77' ;; *) color='#1f5fa8' ;; esac
			y='($2/4294967296.0)'
			if [ $png = keyspace-zoom ]; then
				# few distinct values (one id per row from a sequence, a few seconds): integer tics
				read -r lo hi <<<"$(awk -F, 'NR == 1 { lo = hi = $2 } { if ($2 < lo) lo = $2; if ($2 > hi) hi = $2 } END { printf "%.0f %.0f", lo, hi }' "keys_$name.dat")"
				if [ $((hi - lo)) -lt 8 ]; then echo "set yrange [$lo-0.5:$hi+0.5]; set ytics 1"; else echo "set autoscale y; set ytics autofreq"; fi
				y=2
			fi
			echo "set title \"${label//\"/} ($class)\"; plot 'keys_$name.dat' using (\$1/1e6):$y with points pt 7 ps 0.25 lc rgb '$color'"
		done
		echo "unset multiplot"
	} | gp $png
done

# batch_plot DATA LIST PNG TITLE: WAL, full-page images and index reads per batch against the
# index size at the end of the batch, one line per generator.
batch_plot() {
	local data=$1 list=$2 i=0 c panel col ptitle ylabel plot y name class label style
	{
		echo "set terminal pngcairo noenhanced size 1200,1250 font 'DejaVu Sans,10'"
		echo "set output '$3.png'"
		echo "set multiplot layout 3,1 title '$4' font ',12'"
		echo "set grid; set xlabel 'index size after the batch (MB)' offset 0,0.5; set rmargin at screen 0.66"
		echo "set arrow 1 from $SB, graph 0 to $SB, graph 1 nohead dt 2 lw 2 lc rgb '#888888'"
		for c in '#000000' '#777777' '#d62728' '#ff7f0e' '#2ca02c' '#17becf' '#1f77b4' '#9467bd' '#8c564b' '#e377c2' '#bcbd22' \
			'#000080' '#800000' '#008080' '#808000' '#ff00ff' '#1b9e77' '#7570b3' '#e6ab02' '#a6761d' '#66a61e' '#e7298a'; do
			echo "set linetype $((++i)) lc rgb '$c'"
		done
		for panel in "3|WAL bytes per row|WAL bytes per row" "4|full-page images per 1000 rows (log scale; 0 drawn at 0.01)|FPI per 1000 rows" "5|index blocks read per 1000 rows (log scale; 0 drawn at 0.01; on PostgreSQL 15 new pages count as reads)|blocks read per 1000 rows"; do
			IFS='|' read -r col ptitle ylabel <<<"$panel"
			echo "set title '$ptitle'; set ylabel '$ylabel' offset 1,0"
			if [ "$col" = 3 ]; then
				echo "set logscale y; set yrange [*:*]"
				echo "set key at screen 0.99, screen 0.95 right top noopaque spacing 1.2"
				y=3
			else
				echo "set logscale y; set yrange [0.01:*]"
				echo "unset key"
				y="(\$$col > 0.01 ? \$$col : 0.01)"
			fi
			plot=plot i=0
			while IFS='|' read -r name class _ label; do
				case $class in baseline) style="dt 2 lw 2" ;; peer) style="dt 4 lw 2" ;; portable) style="dt 3 lw 2" ;; *) style="lw 2" ;; esac
				plot="$plot '$data' index $i using 2:$y with linespoints pt 7 ps 0.5 $style lt $((++i)) title \"${label//\"/} ($class)\","
			done <"$list"
			echo "${plot%,}"
		done
		echo "unset multiplot"
	} | gp "$3"
}

batch_plot batches.dat generators.txt wal \
	"Each batch of the bulk load, against the index size after it; dashed line: shared_buffers ($SB MB); CHECKPOINT after each batch"
if [ -s short_generators.txt ]; then
	batch_plot short_batches.dat short_generators.txt short \
		"Short sessions (a new connection per batch): each CHECKPOINT interval, against the index size after it; dashed line: shared_buffers ($SB MB)"
fi

# Cost: ratio to gen_random_uuid() per generator, one backend and 1 / N pgbench clients.
if [ -s cost_plot.dat ]; then
	n=$(wc -l <cost_plot.dat)
	{
		echo "set terminal pngcairo noenhanced size 1200,$((n * 40 + 160)) font 'DejaVu Sans,10'"
		echo "set output 'cost.png'"
		echo "set title \"Cost of a call above the floor, as a ratio to gen_random_uuid() (log scale; below 0.01 drawn at 0.01)\\npeers: the names with their source in brackets; lu_sql.*: the portable SQL edition\" font ',12'"
		echo "set datafile separator '|'"
		echo "set style fill solid 0.9 border -1"
		echo "set logscale x; set xrange [0.01:20]; set grid x; set xlabel 'ratio to gen_random_uuid() (1 = as costly)'"
		echo "set yrange [$n-0.5:-0.5]; set ytics nomirror; set key top right box opaque; set lmargin 42"
		echo "set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb '#888888'"
		# horizontal bars (x, y, x low, x high, y low, y high), three per generator; 0 drawn at 0.01
		echo "v(x) = (x > 0.01) ? x : 0.01"
		echo "plot 'cost_plot.dat' using (v(\$2)):(\$0-0.27):(0.01):(v(\$2)):(\$0-0.4):(\$0-0.14):ytic(1) with boxxyerror lc rgb '#1b9e77' title 'one backend, count(f())', \\"
		echo "  '' using (v(\$3)):(\$0):(0.01):(v(\$3)):(\$0-0.13):(\$0+0.13) with boxxyerror lc rgb '#7570b3' title 'pgbench, 1 client', \\"
		echo "  '' using (v(\$4)):(\$0+0.27):(0.01):(v(\$4)):(\$0+0.14):(\$0+0.4) with boxxyerror lc rgb '#e7298a' title 'pgbench, $(meta cc_clients) clients'"
	} | gp cost
fi
