# Shared set-up for tools/run and tools/test: Debian packages, then a configured and built build/.
# Sourced, not run; every step is skipped when it is already done, so both scripts are idempotent.

SP_PACKAGES="meson ninja-build pkg-config gcc libc6-dev git libxxhash-dev libzstd-dev check libopenmpi-dev openmpi-bin"
SP_BUILD=${SP_BUILD:-build}

sp_missing_packages() {
  local p
  for p in $SP_PACKAGES; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || printf '%s ' "$p"
  done
}

sp_install_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup: not a Debian system; make sure these are installed: $SP_PACKAGES" >&2
    return 0
  fi
  local missing sudo=""
  missing=$(sp_missing_packages)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: missing packages ($missing) and not root; install them or run as root" >&2; return 1; }
    sudo=sudo
  fi
  echo "setup: installing $missing" >&2
  $sudo apt-get update -qq || return 1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing || return 1
}

sp_build() {
  if [ ! -f "$SP_BUILD/build.ninja" ]; then
    meson setup "$SP_BUILD" --buildtype=release >&2 || return 1
  fi
  meson compile -C "$SP_BUILD" >&2 || return 1
}

sp_setup() {
  sp_install_packages && sp_build
}
