#!/usr/bin/env bash
# A local three-node MariaDB Galera cluster on loopback ports, for the scale-out tests and
# bench: `scripts/galera.sh start|stop|status`. Needs the Debian packages mariadb-server and
# galera-4 (and rsync, which state transfer uses). Nothing here is for production: no
# passwords, the data under one folder that `stop` leaves for a quick restart and `wipe` removes.
#
#   ANWC_GALERA_DIR   where the nodes keep their data   (default /tmp/anwc-galera)
#   ANWC_GALERA_PORT  SQL port of node 1; 2 and 3 follow (default 3311: 3311, 3312, 3313)
set -euo pipefail

DIR=${ANWC_GALERA_DIR:-/tmp/anwc-galera}
BASE=${ANWC_GALERA_PORT:-3311}
NODES=(1 2 3)
PROVIDER=${ANWC_GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
# As root the server runs as mysql: the rsync daemon of a state transfer, started by the server,
# would otherwise drop to nobody and fail to write the joiner's data folder.
RUN_AS=$(id -un)
[ "$RUN_AS" = root ] && RUN_AS=mysql

sql_port() { echo $((BASE + $1 - 1)); }
# Group communication, incremental and snapshot transfer each need a port per node.
gcomm_port() { echo $((BASE + 1000 + ($1 - 1) * 10)); }
ist_port() { echo $(($(gcomm_port "$1") + 1)); }
sst_port() { echo $(($(gcomm_port "$1") + 2)); }

cluster_address() {
  local list=() n
  for n in "${NODES[@]}"; do list+=("127.0.0.1:$(gcomm_port "$n")"); done
  (IFS=,; echo "gcomm://${list[*]}")
}

write_config() {
  local n=$1 d="$DIR/node$1"
  mkdir -p "$d/data"
  [ "$(id -un)" = root ] && chown -R "$RUN_AS" "$d"
  cat >"$d/my.cnf" <<EOF
[mysqld]
user=$RUN_AS
datadir=$d/data
socket=$d/mysqld.sock
pid-file=$d/mysqld.pid
log-error=$d/error.log
bind-address=127.0.0.1
port=$(sql_port "$n")
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
innodb_flush_log_at_trx_commit=2
performance_schema=OFF
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=anwc_test
wsrep_cluster_address=$(cluster_address)
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gcomm_port "$n")
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$n")
EOF
}

ping_node() {
  mariadb-admin --host=127.0.0.1 --port="$(sql_port "$1")" --user=root --connect-timeout=2 ping >/dev/null 2>&1
}

synced() {
  local state
  state=$(mariadb --host=127.0.0.1 --port="$(sql_port "$1")" --user=root -N -B \
    -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2) || return 1
  [ "$state" = Synced ]
}

# Waits on the process just started, not on a pid file, which a node killed outright leaves
# behind naming a process that is gone (or, later, someone else's).
wait_synced() {
  local n=$1 pid=$2 from=$3 i
  for i in $(seq 1 120); do
    synced "$n" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "galera: node $n did not reach Synced; its log: $DIR/node$n/error.log" >&2
  tail -n "+$from" "$DIR/node$n/error.log" 2>/dev/null | tail -n 20 >&2 || true
  return 1
}

# The pid in a node's pid file, if that process is still a MariaDB server.
node_pid() {
  local pidf="$DIR/node$1/mysqld.pid" pid
  [ -f "$pidf" ] || return 1
  pid=$(cat "$pidf")
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = mariadbd ] || return 1
  echo "$pid"
}

start_node() {
  local n=$1 first=${2:-} d="$DIR/node$1"
  ping_node "$n" && return 0
  write_config "$n"
  if [ -n "$first" ] && [ ! -d "$d/data/mysql" ]; then
    mariadb-install-db --defaults-file="$d/my.cnf" --auth-root-authentication-method=normal >"$d/install.log" 2>&1
  fi
  # A node that was the last to leave may bootstrap again; the others rejoin it.
  if [ -n "$first" ] && [ -f "$d/data/grastate.dat" ]; then
    sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$d/data/grastate.dat"
  fi
  local args=(--defaults-file="$d/my.cnf") from
  [ -n "$first" ] && args+=(--wsrep-new-cluster)
  rm -f "$d/mysqld.pid"
  from=$(($( { wc -l <"$d/error.log"; } 2>/dev/null || echo 0) + 1))
  nohup /usr/sbin/mariadbd "${args[@]}" >"$d/stdout.log" 2>&1 &
  wait_synced "$n" $! "$from"
}

start() {
  for bin in mariadbd mariadb-install-db rsync; do
    command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/sbin/$bin" ] || { echo "galera: $bin is not installed (apt-get install mariadb-server galera-4 rsync)" >&2; exit 1; }
  done
  [ -f "$PROVIDER" ] || { echo "galera: no Galera library at $PROVIDER (apt-get install galera-4)" >&2; exit 1; }
  mkdir -p "$DIR"
  local n running=""
  for n in "${NODES[@]}"; do ping_node "$n" && running=$n && break; done
  if [ -z "$running" ]; then start_node 1 first; fi
  for n in "${NODES[@]}"; do start_node "$n"; done
  status
}

stop_node() {
  local pid i
  pid=$(node_pid "$1") || return 0
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  local n
  # Last node first, so node 1 is the last to leave and may bootstrap the next start.
  for n in 3 2 1; do stop_node "$n"; done
}

status() {
  local n
  for n in "${NODES[@]}"; do
    if synced "$n"; then
      echo "node$n 127.0.0.1:$(sql_port "$n") Synced"
    else
      echo "node$n 127.0.0.1:$(sql_port "$n") down"
    fi
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  stop-node) stop_node "${2:?which node (1, 2 or 3)}" ;;
  start-node) start_node "${2:?which node (1, 2 or 3)}" ;;
  status) status ;;
  wipe) stop; rm -rf "$DIR" ;;
  *)
    echo "usage: scripts/galera.sh start|stop|status|wipe|stop-node N|start-node N" >&2
    exit 2
    ;;
esac
