# vmd.sh: a small bash library for talking to vmd with socat and jq. Source it:
#
#   . clients/shell/vmd.sh
#   vmd_open                              # one connection (a socat coprocess)
#   vmd_call vm.create '{"type":"Counter"}' && echo "$VMD_RESULT"
#   vmd_close
#
# One connection stays open between calls, so subscriptions and connection-scoped
# instances live until vmd_close. Needs bash 4+, socat and jq.
#
# Settings (environment):
#   VMD_SOCKET    the socket (else $XDG_RUNTIME_DIR/vmd.sock, else /tmp/vmd-$UID/vmd.sock);
#                 the recipes' --socket PATH option wins over it
#   VMD_TIMEOUT   seconds to wait for each reply (default 10)

VMD_TIMEOUT=${VMD_TIMEOUT:-10}
VMD_NEXT_ID=0
VMD_RESULT=
VMD_ERROR=
VMD_RESPONSE=

# vmd_socket_path [EXPLICIT]: the socket-path rule; prints the path.
vmd_socket_path() {
    if [ -n "${1:-}" ]; then
        printf '%s\n' "$1"
    elif [ -n "${VMD_SOCKET:-}" ]; then
        printf '%s\n' "$VMD_SOCKET"
    elif [ -n "${XDG_RUNTIME_DIR:-}" ] && [ "${XDG_RUNTIME_DIR#/}" != "$XDG_RUNTIME_DIR" ]; then
        printf '%s/vmd.sock\n' "${XDG_RUNTIME_DIR%/}"
    else
        printf '/tmp/vmd-%s/vmd.sock\n' "$(id -u)"
    fi
}

# vmd_open [PATH]: connect (PATH, else the socket-path rule).
vmd_open() {
    local path
    path=$(vmd_socket_path "${1:-}")
    if [ "$(printf '%s' "$path" | wc -c)" -gt 107 ]; then
        echo "vmd: socket path longer than 107 bytes: $path" >&2
        return 2
    fi
    if [ ! -S "$path" ]; then
        echo "vmd: no socket at $path (is vmd running?)" >&2
        return 2
    fi
    coproc VMD_CONN { exec socat - "UNIX-CONNECT:$path"; }
    VMD_IN=${VMD_CONN[0]}
    VMD_OUT=${VMD_CONN[1]}
    VMD_PID=$VMD_CONN_PID
}

# vmd_close: close the connection (the daemon then drops its subscriptions and
# connection-scoped instances).
vmd_close() {
    if [ -n "${VMD_PID:-}" ]; then
        kill "$VMD_PID" 2>/dev/null
        # The coprocess ends by our signal: its status (143) is no failure of vmd_close,
        # which must not stop a `set -e` script.
        wait "$VMD_PID" 2>/dev/null || true
        VMD_PID=
    fi
    return 0
}

# vmd_on_notification LINE: called for each notification read while waiting for a
# reply. Redefine it to react; by default notifications are shown on stderr when
# VMD_VERBOSE is set.
vmd_on_notification() {
    [ -n "${VMD_VERBOSE:-}" ] && printf '< %s\n' "$1" >&2
    return 0
}

# vmd_read_line: one line from the daemon into VMD_LINE; fails on timeout or EOF.
vmd_read_line() {
    IFS= read -r -t "${1:-$VMD_TIMEOUT}" VMD_LINE <&"$VMD_IN"
}

# vmd_send_line JSON: write one frame.
vmd_send_line() {
    printf '%s\n' "$1" >&"$VMD_OUT"
}

# vmd_call METHOD [PARAMS_JSON]: one request. On success returns 0 with the result
# (compact JSON) in VMD_RESULT; on an error response returns 1 with the error object
# in VMD_ERROR and its message on stderr; 124 when no reply came in VMD_TIMEOUT s.
vmd_call() {
    local method=$1 params=${2:-} id request
    VMD_NEXT_ID=$((VMD_NEXT_ID + 1))
    id=$VMD_NEXT_ID
    if [ -n "$params" ]; then
        request=$(jq -cn --arg m "$method" --argjson id "$id" --argjson p "$params" \
            '{jsonrpc: "2.0", id: $id, method: $m, params: $p}') || return 2
    else
        request=$(jq -cn --arg m "$method" --argjson id "$id" '{jsonrpc: "2.0", id: $id, method: $m}') || return 2
    fi
    vmd_send_line "$request" || { echo "vmd: the connection is closed" >&2; return 2; }
    while vmd_read_line; do
        if jq -e --argjson id "$id" 'type == "object" and (has("method") | not) and .id == $id' \
            >/dev/null <<<"$VMD_LINE"; then
            VMD_RESPONSE=$VMD_LINE
            if jq -e 'has("error")' >/dev/null <<<"$VMD_LINE"; then
                VMD_ERROR=$(jq -c '.error' <<<"$VMD_LINE")
                VMD_RESULT=
                printf 'vmd: %s (%s)\n' "$(jq -r '.error.message' <<<"$VMD_LINE")" \
                    "$(jq -r '.error.data.name // .error.code' <<<"$VMD_LINE")" >&2
                return 1
            fi
            VMD_RESULT=$(jq -c '.result' <<<"$VMD_LINE")
            VMD_ERROR=
            return 0
        fi
        vmd_on_notification "$VMD_LINE"
    done
    echo "vmd: no reply to $method within ${VMD_TIMEOUT}s (or the connection closed)" >&2
    return 124
}

# vmd_notify METHOD [PARAMS_JSON]: a notification (no reply).
vmd_notify() {
    local method=$1 params=${2:-}
    if [ -n "$params" ]; then
        vmd_send_line "$(jq -cn --arg m "$method" --argjson p "$params" '{jsonrpc: "2.0", method: $m, params: $p}')"
    else
        vmd_send_line "$(jq -cn --arg m "$method" '{jsonrpc: "2.0", method: $m}')"
    fi
}

# vmd_parse_socket_option "$@": handles a leading --socket PATH; sets VMD_SOCKET_OPTION
# and VMD_SHIFT (how many arguments it used).
vmd_parse_socket_option() {
    VMD_SOCKET_OPTION=
    VMD_SHIFT=0
    if [ "${1:-}" = "--socket" ]; then
        VMD_SOCKET_OPTION=${2:?--socket needs a path}
        VMD_SHIFT=2
    fi
}
