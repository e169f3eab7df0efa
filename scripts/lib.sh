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
#   require_swift             die, saying where to get it, unless `swift` 6 or later is on PATH
#   on_exit COMMAND...        run COMMAND when the script exits, keeping its exit status
#   check_sandbox_ready BIN   die unless BIN can start where only /usr is visible
#   build_static_thumbkit SCRATCH  build `thumbkit` with the Swift runtime linked in, check it
#                             with check_sandbox_ready, print its path
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

# Commands for the EXIT trap, most recent first (on_exit).
_TK_ON_EXIT=()

# Runs COMMAND... (quoted as given) when the script exits, however it exits, after the commands
# registered later; a failing one is ignored and the script's own exit status is kept. Several
# clean-ups compose instead of one `trap … EXIT` replacing another.
on_exit() {
    _TK_ON_EXIT=("$(printf '%q ' "$@")" "${_TK_ON_EXIT[@]}")
    trap _tk_run_on_exit EXIT
}

_tk_run_on_exit() {
    local status=$? command
    for command in "${_TK_ON_EXIT[@]}"; do
        eval "$command" || true
    done
    exit "$status"
}

# Dies unless BIN can start inside GNOME's thumbnailer sandbox, where bubblewrap shows only
# /usr: it must not link the Swift toolchain's runtime (libswift*, Foundation, dispatch), which
# lives outside /usr on these machines, and every shared library it needs must resolve under /usr
# (or /lib, /lib64, which Debian links into /usr).
check_sandbox_ready() {
    local deps
    deps=$(ldd "$1") || die "ldd $1 failed"
    if grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime' <<<"$deps" >&2; then
        die "$1 still links the Swift runtime dynamically"
    fi
    if awk '$2 == "=>" && $3 !~ /^\/(usr|lib|lib64)\// { print; bad = 1 } END { exit !bad }' <<<"$deps" >&2; then
        die "$1 needs libraries from outside /usr"
    fi
}

# Builds `thumbkit` in release mode with the Swift runtime linked in statically
# (`--static-swift-stdlib`), in the scratch folder SCRATCH so that the ordinary .build is left as
# it is, checks it with check_sandbox_ready, and prints the binary's path.
build_static_thumbkit() {
    local flags=(-c release --static-swift-stdlib --product thumbkit --scratch-path "$1") dir
    swift build "${flags[@]}" >&2 || die "static build of thumbkit failed"
    dir=$(swift build "${flags[@]}" --show-bin-path) || die "swift build --show-bin-path failed"
    check_sandbox_ready "$dir/thumbkit"
    printf '%s\n' "$dir/thumbkit"
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

# Dies unless a Swift 6 (or later) toolchain is on PATH, saying what is missing and where to get
# it: Debian 12 packages no Swift 6, so it comes from swift.org, not from apt.
require_swift() {
    local where="get Swift 6 for Debian 12 from https://www.swift.org/install/linux/ (swiftly, or the tarball) and put its usr/bin on PATH"
    command -v swift >/dev/null 2>&1 || die "swift is not on PATH: $where"
    local version major
    version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
    major=${version%%.*}
    [ -n "$major" ] || die "$(command -v swift) does not say its version: $where"
    [ "$major" -ge 6 ] || die "$(command -v swift) is Swift $version, ThumbKit needs 6 or later: $where"
}

# Debian packages the Swift package needs to build (C libraries and their headers).
# shellcheck disable=SC2034
BUILD_PACKAGES="libpng-dev libdeflate-dev libjpeg-dev libsqlite3-dev libssl-dev liblcms2-dev libpq-dev libwebp-dev libheif-dev libmicrohttpd-dev pkg-config"
# Extra packages the test suite uses: vipsthumbnail as the quality peer; libgs-common for a
# CMYK press profile (Ghostscript's default_cmyk.icc) in the colour tests; GNU time, through which
# the bench measures each tool's own peak memory. The desktop tests run GIO (libglib2.0-bin),
# gnome-desktop through PyGObject (python3-gi, gir1.2-gnomedesktop-3.0) and its bubblewrap sandbox.
# Pillow (python3-pil) is the third decoder of the WebP outputs and the bench's Pillow peer.
# The serve tests drive the server with curl and check signatures with openssl and xxd.
# shellcheck disable=SC2034
TEST_PACKAGES="libvips-tools libgs-common time libglib2.0-bin python3-gi gir1.2-gnomedesktop-3.0 bubblewrap webp libheif-examples libavif-bin python3-pil curl openssl xxd chromium chromium-driver python3-selenium"
