# Shared by the scripts: find the package root and install what a fresh machine lacks.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

# `apt-get update` and `apt-get install` of PACKAGES..., through sudo when not root; its status is
# apt-get's. With --no-prompt, sudo never asks for a password (for checks that are skipped when
# their tools cannot be installed).
apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    if [ "$1" = "--no-prompt" ]; then
        shift
        if [ -n "$sudo" ]; then sudo="sudo -n"; fi
    fi
    $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "$@" >&2
}

ensure_readline() {
    if [ ! -f /usr/include/readline/readline.h ]; then
        echo "plumb: installing libreadline-dev (GNU readline headers)..." >&2
        apt_install libreadline-dev
    fi
}

# `plumb serve` is built on GNU libmicrohttpd (Debian libmicrohttpd-dev): every build needs its header.
ensure_microhttpd() {
    if [ ! -f /usr/include/microhttpd.h ]; then
        echo "plumb: installing libmicrohttpd-dev (the HTTP library under plumb serve)..." >&2
        apt_install libmicrohttpd-dev pkg-config
    fi
}

# `plumb serve` draws the learners' URL as a QR code with libqrencode (Debian libqrencode-dev):
# every build needs its header.
ensure_qrencode() {
    if [ ! -f /usr/include/qrencode.h ]; then
        echo "plumb: installing libqrencode-dev (the QR code of plumb serve's address)..." >&2
        apt_install libqrencode-dev pkg-config
    fi
}

# The QR code test decodes the printed code with zbarimg (Debian zbar-tools); without it, skipped.
ensure_zbar() {
    if ! command -v zbarimg >/dev/null 2>&1; then
        echo "plumb: installing zbar-tools (zbarimg, for the QR code test)..." >&2
        apt_install zbar-tools
    fi
}

# The terminal tests drive the REPL in a pseudo-terminal through tmux; without it they are skipped.
ensure_tmux() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "plumb: installing tmux (for the terminal tests)..." >&2
        apt_install tmux
    fi
}

# The diagram tests render every SVG with rsvg-convert (Debian librsvg2-bin); without it they are skipped.
ensure_rsvg() {
    if ! command -v rsvg-convert >/dev/null 2>&1; then
        echo "plumb: installing librsvg2-bin (rsvg-convert, for the diagram tests)..." >&2
        apt_install librsvg2-bin
    fi
}

# The Emacs test (Scripts/check-editors) runs Debian's emacs-nox with its eglot (elpa-eglot): both
# installed when missing; false (the test is skipped) when they cannot be.
ensure_emacs() {
    if command -v emacs >/dev/null 2>&1 && emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1; then
        return 0
    fi
    echo "plumb: installing emacs-nox and elpa-eglot (for the Emacs test)..." >&2
    if apt_install --no-prompt emacs-nox elpa-eglot && emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1; then
        return 0
    fi
    echo "plumb: could not install emacs-nox and elpa-eglot" >&2
    return 1
}

# One virtual environment (.build/venv) for every Python check: pytest-lsp (Scripts/check-lsp),
# textmate-grammar-python (Scripts/check-editors), junitparser (the JUnit report test). Made again
# when the list below changes.
VENV="$ROOT/.build/venv"
VENV_PACKAGES='pytest-lsp>=1.0,<2 textmate-grammar-python>=0.6,<0.7 junitparser>=3,<6'
ensure_venv() {
    if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/packages" 2>/dev/null)" != "$VENV_PACKAGES" ]; then
        echo "plumb: creating $VENV ($VENV_PACKAGES)..." >&2
        rm -rf "$VENV"
        python3 -m venv "$VENV"
        # shellcheck disable=SC2086 # one word per requirement
        "$VENV/bin/pip" install --quiet --disable-pip-version-check $VENV_PACKAGES
        echo "$VENV_PACKAGES" >"$VENV/packages"
    fi
}

# The browser tests' virtual environment (.build/venv-serve): Selenium for Chromium (Scripts/check-serve),
# Mozilla's Marionette client for Firefox (Scripts/check-serve-firefox), pytest. Made again when the
# list below changes.
SERVE_VENV="$ROOT/.build/venv-serve"
SERVE_VENV_PACKAGES='selenium>=4.10,<5 marionette_driver>=3.7,<4 pytest>=7,<9 pytest-timeout>=2,<3'
ensure_serve_venv() {
    if [ ! -x "$SERVE_VENV/bin/pytest" ] || [ "$(cat "$SERVE_VENV/packages" 2>/dev/null)" != "$SERVE_VENV_PACKAGES" ]; then
        echo "plumb: creating $SERVE_VENV ($SERVE_VENV_PACKAGES)..." >&2
        rm -rf "$SERVE_VENV"
        python3 -m venv "$SERVE_VENV"
        # shellcheck disable=SC2086 # one word per requirement
        "$SERVE_VENV/bin/pip" install --quiet --disable-pip-version-check $SERVE_VENV_PACKAGES
        echo "$SERVE_VENV_PACKAGES" >"$SERVE_VENV/packages"
    fi
}

# Firefox for the browser test (Debian firefox-esr; Debian has no geckodriver, so the test drives it
# through Marionette). Returns 1, saying so, when it cannot be installed.
ensure_firefox() {
    [ -x /usr/bin/firefox-esr ] && return 0
    echo "plumb: installing firefox-esr (for the browser test)..." >&2
    if apt_install --no-prompt firefox-esr && [ -x /usr/bin/firefox-esr ]; then
        return 0
    fi
    echo "plumb: could not install firefox-esr" >&2
    return 1
}

# Installs Debian packages that a check needs when their command is missing; returns 1 (and
# says so) when they cannot be installed, so the check can be skipped with a message.
ensure_command() {
    local command="$1" package="$2"
    command -v "$command" >/dev/null 2>&1 && return 0
    echo "plumb: installing $package (for $command)..." >&2
    if apt_install --no-prompt "$package" && command -v "$command" >/dev/null 2>&1; then
        return 0
    fi
    echo "plumb: could not install $package" >&2
    return 1
}

# `swift build ARGS...` that prints nothing of SwiftPM's when everything is up to date, and shows
# its progress (from the first line that compiles, links or reports a problem) when it really
# builds. Its exit status is swift build's.
quiet_build() {
    local shown=0 line held=()
    set -o pipefail
    (cd "$ROOT" && swift build "$@" 2>&1) | while IFS= read -r line; do
        if [ "$shown" -eq 0 ]; then
            case "$line" in
                *Compiling* | *Linking* | *Emitting* | *error* | *warning* | *Fetching* | *Cloning*)
                    shown=1
                    if [ "${#held[@]}" -gt 0 ]; then printf '%s\n' "${held[@]}" >&2; fi
                    ;;
                *)
                    held+=("$line")
                    continue
                    ;;
            esac
        fi
        printf '%s\n' "$line" >&2
    done
}
