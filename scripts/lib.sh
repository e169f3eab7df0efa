# shellcheck shell=bash
# scripts/lib.sh: small bash helpers shared by every script of the project.
#
# Source it, do not run it:
#     . "$(dirname "$0")/lib.sh"          # or "$(dirname "$0")/../lib.sh" from a subfolder
#
# Functions:
#   log MESSAGE...            print "<script>: MESSAGE" to stderr
#   die MESSAGE...            log MESSAGE, then exit 1
#   apt_update_once           run `apt-get update` at most once per process tree
#   ensure_apt_lists PKG      make sure apt knows PKG (runs apt_update_once if it does not)
#   package_installed PKG     true when the Debian package PKG is installed
#   ensure_packages PKG...    install the missing ones among PKG... (idempotent)
#
# Installing needs root; when not root, `sudo` is used if it exists. Nothing here downloads
# anything but Debian packages through apt.

TK_SCRIPT_NAME=${TK_SCRIPT_NAME:-$(basename "$0")}

log() { printf '%s: %s\n' "$TK_SCRIPT_NAME" "$*" >&2; }

die() {
    log "error: $*"
    exit 1
}

# Runs a command as root (directly, or through sudo when we are not root).
_tk_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root (or sudo) to run: $*"
    fi
}

# `apt-get update`, once: the exported marker stops child scripts from updating again.
apt_update_once() {
    [ -n "${TK_APT_UPDATED:-}" ] && return 0
    log "apt-get update"
    _tk_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 ||
        die "apt-get update failed"
    export TK_APT_UPDATED=1
}

# Makes sure apt has a candidate for PKG (a fresh machine may have empty package lists).
ensure_apt_lists() {
    if ! apt-cache show "$1" >/dev/null 2>&1; then
        apt_update_once
    fi
}

package_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# Installs every PKG that is not installed yet, with apt-get update first (once) and without
# recommended packages. Does nothing, and touches no network, when all are installed.
ensure_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        package_installed "$pkg" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_update_once
    log "installing ${missing[*]}"
    # apt's own chatter goes to a log, shown only when the install fails.
    local apt_log
    apt_log=$(mktemp)
    if ! _tk_as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}" >"$apt_log" 2>&1; then
        tail -n 30 "$apt_log" >&2
        rm -f "$apt_log"
        die "apt-get install ${missing[*]} failed"
    fi
    rm -f "$apt_log"
}

# Debian packages the Swift package needs to build (C libraries and their headers).
# shellcheck disable=SC2034
BUILD_PACKAGES="libpng-dev libjpeg-dev libsqlite3-dev libssl-dev liblcms2-dev libpq-dev libwebp-dev libheif-dev pkg-config"
# Extra packages the test suite uses: vipsthumbnail as the quality peer; libgs-common for a
# CMYK press profile (Ghostscript's default_cmyk.icc) in the colour tests; GNU time, through which
# the bench measures each tool's own peak memory. The desktop tests run GIO (libglib2.0-bin),
# gnome-desktop through PyGObject (python3-gi, gir1.2-gnomedesktop-3.0) and its bubblewrap sandbox.
# Pillow (python3-pil) is the third decoder of the WebP outputs and the bench's Pillow peer.
# shellcheck disable=SC2034
TEST_PACKAGES="libvips-tools libgs-common time libglib2.0-bin python3-gi gir1.2-gnomedesktop-3.0 bubblewrap webp libheif-examples libavif-bin python3-pil"
