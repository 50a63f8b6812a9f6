# Shared by the scripts: find the package root and install what a fresh machine lacks.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

ensure_readline() {
    if [ ! -f /usr/include/readline/readline.h ]; then
        echo "plumb: installing libreadline-dev (GNU readline headers)..." >&2
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq libreadline-dev >&2
    fi
}

# The terminal tests drive the REPL in a pseudo-terminal through tmux; without it they are skipped.
ensure_tmux() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "plumb: installing tmux (for the terminal tests)..." >&2
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq tmux >&2
    fi
}

# The diagram tests render every SVG with rsvg-convert (Debian librsvg2-bin); without it they are skipped.
ensure_rsvg() {
    if ! command -v rsvg-convert >/dev/null 2>&1; then
        echo "plumb: installing librsvg2-bin (rsvg-convert, for the diagram tests)..." >&2
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq librsvg2-bin >&2
    fi
}
