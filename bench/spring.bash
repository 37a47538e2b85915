# bench/spring.bash: bench/run's spring step (issue 36, point 2), sourced by
# bench/run, whose helpers (log, stats, work, pids, POST_BODY, unbounded,
# BENCH_POSTGRES_URL, DURATION, WARMUP) it uses. It runs greeter and the
# Spring reference application (conformance/spring, Boot 4 on Tomcat) side
# by side and loads them in turn, A B C A B C, with wrk -t2 -c64 --latency:
#
#   spring_measure  start-up to the first 200 and idle VmRSS (bench/cmd/startup,
#                   SPRING_STARTS starts of each, alternating); then each of
#                   SPRING_ENDPOINTS: a warm-up of each JVM in runs of
#                   DURATION, at least SPRING_WARMUP seconds and then until
#                   its CPU time per request stops falling (three runs in a
#                   row that do not lower it by 5%; at most
#                   SPRING_WARMUP_MAX; greeter WARMUP), whose requests/s and
#                   CPU per request are printed, to show where they level
#                   off; then SPRING_ROUNDS rounds of DURATION of each server
#                   in turn: requests/s, p99, CPU time per request (utime +
#                   stime from /proc/PID/stat over the run, over the requests
#                   wrk counted) and the peak VmRSS of the rounds (VmHWM,
#                   reset through clear_refs after the warm-up);
#   spring_table    the figures as docs/performance.md's table, with
#                   greeter ÷ each Spring run as the median of the rounds'
#                   ratios [min-max].
#
# The targets (SPRING_TARGETS; the first is the one the ratios divide):
#   greeter        cmd/greeter from this checkout;
#   spring         java -jar app.jar with SPRING_JAVA (the machine's java, 17):
#                  Tomcat's platform threads;
#   spring-vt      the same jar on SPRING_JAVA21 (a JDK of 21 or later,
#                  looked for in /usr/lib/jvm when unset) with
#                  spring.threads.virtual.enabled=true; left out, with a
#                  line saying so, when there is none;
#   spring21       (not by default) platform threads on SPRING_JAVA21, to
#                  tell the JDK's share from the virtual threads';
#   spring-xmx256  (not by default) spring with -Xmx256m.
# Every JVM gets SPRING_JVM_FLAGS (default none: java -jar, as Spring Boot's
# documentation runs a jar; the JVM then picks G1 and a quarter of the
# machine's memory as its largest heap).
#
# The endpoints (SPRING_ENDPOINTS): hello (GET /api/hello), hello-id (GET
# /api/hello/42), post-message (POST /api/messages, bench/post.lua; the
# in-memory store, unbounded in greeter as in the load step) on one instance
# of each target with its defaults; pg-list (GET /api/messages) on another
# with each target on its own database of BENCH_POSTGRES_URL's engine
# (created here, dropped at exit), seeded with SPRING_LIST_MESSAGES POSTs
# of bench/post.lua's message.

SPRING_JAR=${SPRING_JAR:-conformance/spring/target/boot4/app.jar}
SPRING_JAVA=${SPRING_JAVA:-$(command -v java || true)}
SPRING_JAVA21=${SPRING_JAVA21:-}
SPRING_JVM_FLAGS=${SPRING_JVM_FLAGS:-}
SPRING_WARMUP=${SPRING_WARMUP:-60}
SPRING_WARMUP_MAX=${SPRING_WARMUP_MAX:-180}
SPRING_ROUNDS=${SPRING_ROUNDS:-5}
SPRING_STARTS=${SPRING_STARTS:-5}
SPRING_LIST_MESSAGES=${SPRING_LIST_MESSAGES:-100}
SPRING_ENDPOINTS=${SPRING_ENDPOINTS:-hello hello-id post-message pg-list}
SPRING_ENDPOINT_LIST=(
	"hello GET /api/hello"
	"hello-id GET /api/hello/42"
	"post-message POST /api/messages"
	"pg-list GET /api/messages"
)

# java_major JAVA: the JDK's feature release (17, 21, 25), from -version.
java_major() {
	"$1" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'
}

# spring_tools: the jar (built from conformance/spring when missing or
# older than its sources), the JDKs, and PostgreSQL; sets SPRING_TARGETS.
spring_tools() {
	[[ -n $SPRING_JAVA ]] || {
		echo "bench/run: spring: no java on PATH (.ci/run installs openjdk-17-jdk-headless)" >&2
		exit 1
	}
	if [[ ! -f $SPRING_JAR ]] || [[ -n $(find conformance/spring/src conformance/spring/pom.xml -newer "$SPRING_JAR" -print -quit) ]]; then
		log "spring: building $SPRING_JAR (mvn -Pboot4 package)"
		(cd conformance/spring && mvn -B -q -Dstyle.color=never -Pboot4 package 2>&1 | sed 's/\x1b\[0m//g')
	fi
	SPRING_JAR=$(realpath "$SPRING_JAR") # the servers start in $work/cwd
	if [[ -z $SPRING_JAVA21 ]]; then
		local j
		for j in /usr/lib/jvm/*/bin/java; do
			[[ -x $j ]] && (($(java_major "$j") >= 21)) && SPRING_JAVA21=$j && break
		done
	fi
	if [[ -z ${SPRING_TARGETS:-} ]]; then
		SPRING_TARGETS="greeter spring"
		if [[ -n $SPRING_JAVA21 ]]; then
			SPRING_TARGETS+=" spring-vt"
		else
			log "spring: no JDK of 21 or later (SPRING_JAVA21, /usr/lib/jvm): no virtual-thread run"
		fi
	fi
	psql -q "$BENCH_POSTGRES_URL" -c 'select 1' >/dev/null || {
		echo "bench/run: spring: PostgreSQL does not answer at $BENCH_POSTGRES_URL (BENCH_POSTGRES_URL; .ci/run starts it)" >&2
		exit 1
	}
}

# spring_cmd WHO: sets cmd to the command line that starts target WHO.
spring_cmd() {
	local flags
	read -r -a flags <<<"$SPRING_JVM_FLAGS"
	case $1 in
	greeter) cmd=("$work/greeter") ;;
	spring) cmd=("$SPRING_JAVA" "${flags[@]}" -jar "$SPRING_JAR") ;;
	spring-vt) cmd=("$SPRING_JAVA21" "${flags[@]}" -jar "$SPRING_JAR" --spring.threads.virtual.enabled=true) ;;
	spring21) cmd=("$SPRING_JAVA21" "${flags[@]}" -jar "$SPRING_JAR") ;;
	spring-xmx256) cmd=("$SPRING_JAVA" "${flags[@]}" -Xmx256m -jar "$SPRING_JAR") ;;
	*)
		echo "bench/run: SPRING_TARGETS: no target named $1" >&2
		exit 1
		;;
	esac
}

# spring_label WHO: the column heading of target WHO.
spring_label() {
	case $1 in
	greeter) echo "greeter" ;;
	spring) echo "Spring, Java $(java_major "$SPRING_JAVA"), platform threads" ;;
	spring-vt) echo "Spring, Java $(java_major "$SPRING_JAVA21"), virtual threads" ;;
	spring21) echo "Spring, Java $(java_major "$SPRING_JAVA21"), platform threads" ;;
	spring-xmx256) echo "Spring, Java $(java_major "$SPRING_JAVA"), -Xmx256m" ;;
	esac
}

# spring_start WHO NAME ARGS...: starts target WHO on a free port with ARGS
# in an empty directory and environment; sets PORT and PID once it listens
# (greeter logs "msg="Started greeter in ... seconds (...)" ... addr=...:PORT", Boot "Tomcat started on port
# PORT").
spring_start() {
	local who=$1 name=$2 cmd
	shift 2
	spring_cmd "$who"
	(cd "$work/cwd" && exec env -i PATH="$PATH" "${cmd[@]}" --server.port=0 "$@") >"$work/$name.out" 2>"$work/$name.err" &
	PID=$!
	pids+=("$PID")
	PORT=
	for _ in $(seq 1800); do
		PORT=$(grep -oE 'msg="Started [^ ]+ in [0-9.]+ seconds \(process running for [0-9.]+\)".* addr=[^ ]*|Tomcat started on port [0-9]+' "$work/$name.out" 2>/dev/null | head -1 | grep -oE '[0-9]+$') || true
		[[ -n $PORT ]] && break
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	if [[ -z $PORT ]]; then
		echo "bench/run: spring: $name did not start; its output:" >&2
		tail -50 "$work/$name.out" "$work/$name.err" >&2
		exit 1
	fi
}

# cpu_ticks PID: the process's user and system time so far, in clock ticks.
cpu_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'
}

# vm_kib PID FIELD: VmRSS or VmHWM of the process, in KiB.
vm_kib() {
	awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"
}

# pg_ticks: the user and system time so far of the PostgreSQL server, in
# clock ticks: every postgres process's, with their reaped children's (the
# postmaster's cutime and cstime hold the backends that have exited: a
# pool's connection whose query is cancelled, as wrk's closing its
# connections at the end of a run cancels the requests in flight, is
# closed, and another opened). It is the whole server's, so other users of
# the engine during a run add to it.
pg_ticks() {
	local pid t=0
	for pid in $(pgrep -x postgres); do
		t=$((t + $(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13 + $14 + $15}' || echo 0)))
	done
	echo "$t"
}

# spring_wrk PORT PID METHOD PATH SECONDS [DB]: one wrk -t2 -c64 run;
# writes "requests/s p99-ms requests cpu-ticks db-ticks" to
# $work/spring.wrk, cpu-ticks being the server's and db-ticks PostgreSQL's
# (pg_ticks; 0 unless the server uses database DB). An answer other than 2xx stops
# the step: its figures would not compare. (Not called in a command
# substitution, so that its exit ends the script.)
spring_wrk() {
	local args=(-t2 -c64 "-d$5s" --latency) before out db=${6:-} db_before=0 db_after=0
	[[ $3 == POST ]] && args+=(-s bench/post.lua)
	[[ -n $db ]] && db_before=$(pg_ticks)
	before=$(cpu_ticks "$2")
	out=$(timeout $(($5 + 30)) wrk "${args[@]}" "http://127.0.0.1:$1$4")
	[[ -n $db ]] && db_after=$(pg_ticks)
	echo "$out" | awk -v ticks=$(($(cpu_ticks "$2") - before)) -v db=$((db_after - db_before)) '
		/^Requests\/sec:/ {rps = $2}
		/ requests in / {n = $1}
		/^ +99%/ {v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
			ms = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : (u == "m") ? v * 60000 : v}
		/Non-2xx/ {bad = $NF}
		/Socket errors/ {print "wrk: " $0 > "/dev/stderr"}
		END {if (bad > 0 || n == "") exit 1; printf "%s %s %s %s %s\n", rps, ms, n, ticks, db}' >"$work/spring.wrk" || {
		echo "bench/run: spring: $3 $4 on port $1: some answers were not 2xx, or wrk failed:" >&2
		echo "$out" >&2
		exit 1
	}
}

# same_answer NAME PATH: the targets' bodies for PATH must be the same, so
# that the load compares like with like.
same_answer() {
	local who first= body
	for who in $SPRING_TARGETS; do
		body=$(curl -sf "http://127.0.0.1:${sp_port[$who]}$2") || {
			echo "bench/run: spring: $who: GET $2 failed" >&2
			exit 1
		}
		if [[ -z $first ]]; then
			first=$body
		elif [[ $body != "$first" ]]; then
			echo "bench/run: spring: $1: $who answers GET $2 with ${body:0:200}, greeter with ${first:0:200}" >&2
			exit 1
		fi
	done
}

CLK_TCK=$(getconf CLK_TCK)
declare -A sp_port sp_pid sp_db sp_stat sp_hwm sp_start_us sp_idle_kib sp_warm
# spring_endpoint NAME METHOD PATH: warms and measures one endpoint on the
# running targets (sp_port, sp_pid), into sp_stat[NAME.WHO.MEASURE] ("median
# min max") and sp_hwm[NAME.WHO].
spring_endpoint() {
	local name=$1 method=$2 path=$3 who first i rps p99 n ticks dbticks r
	read -r first _ <<<"$SPRING_TARGETS"
	for who in $SPRING_TARGETS; do
		# A JVM runs at least SPRING_WARMUP seconds, then on until its CPU
		# time per request has stopped falling (three runs in a row that do
		# not lower the least so far by 5%: the JIT has compiled the hot
		# path), or SPRING_WARMUP_MAX; greeter runs WARMUP seconds. Two
		# runs were too few: on a loaded machine Java 17 fell from 161 to
		# 41 µs a request in big steps, with two runs between them that
		# did not lower it.
		local spent=0 flat=0 least= cpu
		: >"$work/spring.$name.$who.warmup"
		while :; do
			if [[ $who == greeter ]]; then
				((spent < WARMUP)) || break
				r=$((WARMUP - spent < DURATION ? WARMUP - spent : DURATION))
			else
				((spent >= SPRING_WARMUP && flat >= 3 || spent >= SPRING_WARMUP_MAX)) && break
				r=$DURATION
			fi
			spring_wrk "${sp_port[$who]}" "${sp_pid[$who]}" "$method" "$path" "$r"
			read -r rps _ n ticks _ <"$work/spring.wrk"
			cpu=$(awk -v t="$ticks" -v n="$n" -v hz="$CLK_TCK" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
			printf '%.0f/%s\n' "$rps" "$cpu" >>"$work/spring.$name.$who.warmup"
			if [[ -n $least ]] && (($(awk -v c="$cpu" -v l="$least" 'BEGIN {print (c >= 0.95 * l)}'))); then
				flat=$((flat + 1))
			else
				flat=0
			fi
			[[ -n $least ]] && (($(awk -v c="$cpu" -v l="$least" 'BEGIN {print (c >= l)}'))) || least=$cpu
			spent=$((spent + r))
		done
		sp_warm[$name.$who]=$spent
		log "spring: $method $path: $who warmed up for ${spent}s, requests/s / µs CPU per request in runs of ${DURATION}s: $(tr '\n' ' ' <"$work/spring.$name.$who.warmup")"
		for m in rps p99 cpu dbcpu; do
			: >"$work/spring.$name.$who.$m"
			: >"$work/spring.$name.$who.$m-ratio"
		done
		echo 5 >"/proc/${sp_pid[$who]}/clear_refs" # resets VmHWM to VmRSS
	done
	for i in $(seq "$SPRING_ROUNDS"); do
		local line=
		for who in $SPRING_TARGETS; do
			spring_wrk "${sp_port[$who]}" "${sp_pid[$who]}" "$method" "$path" "$DURATION" "${sp_db[$who]:-}"
			read -r rps p99 n ticks dbticks <"$work/spring.wrk"
			echo "$rps" >>"$work/spring.$name.$who.rps"
			echo "$p99" >>"$work/spring.$name.$who.p99"
			awk -v t="$ticks" -v n="$n" -v hz="$CLK_TCK" 'BEGIN {printf "%.1f\n", t / hz * 1e6 / n}' >>"$work/spring.$name.$who.cpu"
			awk -v t="$dbticks" -v n="$n" -v hz="$CLK_TCK" 'BEGIN {printf "%.1f\n", t / hz * 1e6 / n}' >>"$work/spring.$name.$who.dbcpu"
			line+="$who $rps/s p99 ${p99} ms $(tail -1 "$work/spring.$name.$who.cpu") µs CPU"
			[[ -n ${sp_db[$who]:-} ]] && line+=" (PostgreSQL $(tail -1 "$work/spring.$name.$who.dbcpu") µs)"
			line+="; "
		done
		for who in $SPRING_TARGETS; do
			for m in rps p99 cpu dbcpu; do
				awk -v a="$(tail -1 "$work/spring.$name.$first.$m")" -v b="$(tail -1 "$work/spring.$name.$who.$m")" \
					'BEGIN {print (b > 0) ? a / b : 0}' >>"$work/spring.$name.$who.$m-ratio"
			done
		done
		log "spring: $method $path round $i: ${line%; }"
	done
	for who in $SPRING_TARGETS; do
		sp_hwm[$name.$who]=$(vm_kib "${sp_pid[$who]}" VmHWM)
		for m in rps p99 cpu dbcpu rps-ratio p99-ratio cpu-ratio dbcpu-ratio; do
			sp_stat[$name.$who.$m]=$(stats "$work/spring.$name.$who.$m")
		done
	done
}

# jdbc_url URL: a postgres:// URL as JDBC writes it, the user a parameter.
jdbc_url() {
	local rest=${1#*://} userinfo= q=
	if [[ $rest == *@* ]]; then
		userinfo=${rest%%@*} rest=${rest#*@}
		q="?user=${userinfo%%:*}"
		[[ $userinfo == *:* ]] && q+="&password=${userinfo#*:}"
	fi
	echo "jdbc:postgresql://$rest$q"
}

spring_measure() {
	local who name method path i cmd ep group
	spring_tools
	spring_began=$(date +%s)
	# The commit measured, read now: one made during the run is not it.
	spring_commit="$(git log -1 --format=%h)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' with changes')"
	spring_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	log "spring: targets $SPRING_TARGETS; $SPRING_STARTS starts of each, alternating"
	for who in $SPRING_TARGETS; do : >"$work/spring.start.$who"; done
	for i in $(seq "$SPRING_STARTS"); do
		for who in $SPRING_TARGETS; do
			spring_cmd "$who"
			(cd "$work/cwd" && env -i PATH="$PATH" "$work/startup" -runs 1 -requests 1 -idle 1s -timeout 120s "${cmd[@]}") |
				grep '^run ' >>"$work/spring.start.$who"
		done
		log "spring: start $i: $(for who in $SPRING_TARGETS; do printf '%s %s ' "$who" "$(tail -1 "$work/spring.start.$who" | cut -d' ' -f3-)"; done)"
	done
	for who in $SPRING_TARGETS; do
		sed 's/.*startup_us=\([0-9]*\).*/\1/' "$work/spring.start.$who" >"$work/spring.start.$who.us"
		sed 's/.*rss_kib=\([0-9]*\).*/\1/' "$work/spring.start.$who" >"$work/spring.start.$who.kib"
		sp_start_us[$who]=$(stats "$work/spring.start.$who.us")
		sp_idle_kib[$who]=$(stats "$work/spring.start.$who.kib")
	done

	# In memory first (hello, hello-id, post-message), then on PostgreSQL
	# (pg-list), each group on instances of its own, stopped after it.
	for group in memory postgres; do
		local eps=()
		for name in $SPRING_ENDPOINTS; do
			for ep in "${SPRING_ENDPOINT_LIST[@]}"; do
				[[ $ep == "$name "* ]] || continue
				[[ $name == pg-* ]] && [[ $group == postgres ]] && eps+=("$ep")
				[[ $name != pg-* ]] && [[ $group == memory ]] && eps+=("$ep")
			done
		done
		((${#eps[@]})) || continue
		log "spring: starting $SPRING_TARGETS ($group)"
		for who in $SPRING_TARGETS; do
			local args=()
			if [[ $group == memory ]]; then
				[[ $who == greeter ]] && args=("${unbounded[@]}")
			else
				local db=greeter_spring_$$_${who//-/_}
				psql -q "$BENCH_POSTGRES_URL" -c "CREATE DATABASE $db"
				spring_dbs+=("$db")
				sp_db[$who]=$db
				if [[ $who == greeter ]]; then
					args=("--app.datasource.url=${BENCH_POSTGRES_URL%/*}/$db")
				else
					args=("--spring.datasource.url=$(jdbc_url "${BENCH_POSTGRES_URL%/*}/$db")")
				fi
			fi
			spring_start "$who" "spring-$group-$who" "${args[@]}"
			sp_port[$who]=$PORT sp_pid[$who]=$PID
		done
		if [[ $group == postgres ]]; then
			for who in $SPRING_TARGETS; do
				local urls=() ok
				for ((i = 0; i < SPRING_LIST_MESSAGES; i++)); do urls+=("http://127.0.0.1:${sp_port[$who]}/api/messages"); done
				ok=$(curl -s -w '%{http_code}\n' -H 'Content-Type: application/json' -d "$POST_BODY" "${urls[@]}" | grep -c '^201$') || true
				((ok == SPRING_LIST_MESSAGES)) || {
					echo "bench/run: spring: $who: $ok of $SPRING_LIST_MESSAGES POSTs answered 201" >&2
					exit 1
				}
			done
			same_answer pg-list /api/messages
		else
			same_answer hello /api/hello
			same_answer hello-id /api/hello/42
		fi
		for ep in "${eps[@]}"; do
			read -r name method path <<<"$ep"
			spring_endpoint "$name" "$method" "$path"
		done
		for who in $SPRING_TARGETS; do stop_server "${sp_pid[$who]}"; done
		sp_db=()
	done
	spring_seconds=$(($(date +%s) - spring_began))
}

# commas N: N rounded, with thousands separated as the doc writes them.
commas() {
	printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'
}
# fmtg MEDIAN MIN MAX: a ratio to three significant digits, with its range
# (greeter's CPU per request is a few hundredths of Spring's).
fmtg() { awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN {printf "%.3g [%.3g-%.3g]", m, lo, hi}'; }
# mid STATS: the median of "median min max".
mid() { echo "${1%% *}"; }

spring_table() {
	local who first name method path ep m row
	read -r first _ <<<"$SPRING_TARGETS"
	local others=()
	for who in $SPRING_TARGETS; do [[ $who == "$first" ]] || others+=("$who"); done
	echo
	echo "greeter and Spring Boot side by side (bench/run spring; reported, not gated): $(date -u +%Y-%m-%d),"
	echo "commit $spring_commit, $(nproc) x $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo),"
	echo "$(go env GOVERSION); $("$SPRING_JAVA" -version 2>&1 | sed -n 2p)${SPRING_JAVA21:+; $("$SPRING_JAVA21" -version 2>&1 | sed -n 2p)};"
	echo "JVM flags: ${SPRING_JVM_FLAGS:-none (java -jar app.jar)}; load average before $spring_load_before, after $(cut -d' ' -f1-3 /proc/loadavg);"
	echo "wrk -t2 -c64 --latency, $SPRING_ROUNDS rounds of ${DURATION}s with the servers in turn, after a warm-up of each JVM of at least"
	echo "${SPRING_WARMUP}s and until its CPU per request stopped falling (3 runs not 5% below the least; at most ${SPRING_WARMUP_MAX}s; greeter ${WARMUP}s)"
	echo "per endpoint; figures are medians of the rounds, ratios the medians of the rounds' ratios [min-max];"
	echo "the list: $SPRING_LIST_MESSAGES messages in PostgreSQL; the step took $((spring_seconds / 60)) min $((spring_seconds % 60)) s."
	echo
	printf '| endpoint | measure |'
	for who in $SPRING_TARGETS; do printf ' %s |' "$(spring_label "$who")"; done
	for who in "${others[@]}"; do printf ' %s ÷ %s |' "$first" "$who"; done
	printf '\n|---|---|'
	for who in $SPRING_TARGETS; do printf -- '---:|'; done
	for who in "${others[@]}"; do printf -- '---|'; done
	echo
	for name in $SPRING_ENDPOINTS; do
		for ep in "${SPRING_ENDPOINT_LIST[@]}"; do [[ $ep == "$name "* ]] && read -r _ method path <<<"$ep"; done
		local label="\`$method $path\`"
		[[ $name == pg-list ]] && label="\`$method $path\` ($SPRING_LIST_MESSAGES, PostgreSQL)"
		for m in "rps requests/s" "p99 p99 (ms)" "cpu CPU per request (µs)" "dbcpu PostgreSQL's CPU per request, the whole server's (µs)" "hwm peak RSS under load (MiB)"; do
			read -r key what <<<"$m"
			[[ $key == dbcpu && $name != pg-* ]] && continue
			row="| $label | $what |"
			label=
			for who in $SPRING_TARGETS; do
				case $key in
				rps) row+=" $(commas "$(mid "${sp_stat[$name.$who.rps]}")") |" ;;
				p99) row+=" $(printf '%.2f' "$(mid "${sp_stat[$name.$who.p99]}")") |" ;;
				cpu | dbcpu) row+=" $(printf '%.1f' "$(mid "${sp_stat[$name.$who.$key]}")") |" ;;
				hwm) row+=" $(awk -v k="${sp_hwm[$name.$who]}" 'BEGIN {printf "%.0f", k / 1024}') |" ;;
				esac
			done
			for who in "${others[@]}"; do
				if [[ $key == hwm ]]; then
					row+=" $(awk -v a="${sp_hwm[$name.$first]}" -v b="${sp_hwm[$name.$who]}" 'BEGIN {printf "%.3g", a / b}') |"
				else
					# shellcheck disable=SC2086 # "median min max"
					row+=" $(fmtg ${sp_stat[$name.$who.$key-ratio]}) |"
				fi
			done
			echo "$row"
		done
	done
	row="| start-up to the first 200, median [min-max] of $SPRING_STARTS (ms) | |"
	for who in $SPRING_TARGETS; do
		read -r m lo hi <<<"${sp_start_us[$who]}"
		row+=" $(awk -v m="$m" -v lo="$lo" -v hi="$hi" 'BEGIN {printf (m >= 100000) ? "%.0f [%.0f-%.0f]" : "%.1f [%.1f-%.1f]", m / 1000, lo / 1000, hi / 1000}') |"
	done
	for who in "${others[@]}"; do row+=" $(awk -v a="$(mid "${sp_start_us[$first]}")" -v b="$(mid "${sp_start_us[$who]}")" 'BEGIN {printf "%.3g", a / b}') |"; done
	echo "$row"
	row="| idle RSS after start-up and one request, median (MiB) | |"
	for who in $SPRING_TARGETS; do row+=" $(awk -v k="$(mid "${sp_idle_kib[$who]}")" 'BEGIN {printf "%.1f", k / 1024}') |"; done
	for who in "${others[@]}"; do row+=" $(awk -v a="$(mid "${sp_idle_kib[$first]}")" -v b="$(mid "${sp_idle_kib[$who]}")" 'BEGIN {printf "%.3g", a / b}') |"; done
	echo "$row"
	echo
	echo "Warm-up: requests/s / µs CPU per request of each ${DURATION}s run before the rounds, its length, and the rounds' medians:"
	for name in $SPRING_ENDPOINTS; do
		for ep in "${SPRING_ENDPOINT_LIST[@]}"; do [[ $ep == "$name "* ]] && read -r _ method path <<<"$ep"; done
		for who in $SPRING_TARGETS; do
			[[ $who == greeter ]] && continue
			echo "  $method $path, $who: $(tr '\n' ' ' <"$work/spring.$name.$who.warmup")(${sp_warm[$name.$who]}s) -> $(commas "$(mid "${sp_stat[$name.$who.rps]}")")/$(printf '%.1f' "$(mid "${sp_stat[$name.$who.cpu]}")")"
		done
	done
}
