#!/usr/bin/env bash
# Fetches the corpora of the reading benchmark's rounds (docs/benchmarks.md, from
# "## Reading (issue 3)" on) and prints each set's `--corpus` arguments.
#
#   bench/scripts/corpora.sh DIR [SET…]        # SET: ts-dev, ts-h1 … js-12flow (default: all)
#   ./target/debug/lctx-bench reading --runs 0 --max-files 1000 $(bench/scripts/corpora.sh DIR go-h1)
#
# npm packages, PyPI sdists and crates go into DIR/ts, DIR/py and DIR/rs; Go comes from
# Debian (golang-1.19-src and golang-github-*-dev, installed with apt-get), and so do the PHP,
# Lua, Perl and shell sets of the keyword outline (docs/benchmarks.md, "Keyword outline on
# held-back code"), read where the package installs them (Universal Ctags counts them). What is already
# there is not fetched again. Each set's name goes to stderr, its arguments to stdout, one
# line per set. Paths are absolute: the engine resolves a relative one against the caller's
# directory, and every read fails.
set -euo pipefail
shopt -s inherit_errexit

# One line per package (or `;` between them): KIND NAME VERSION [ROOT]. ROOT is the corpus
# inside the unpacked package (npm: `package`; crates: `src`, as every table of the docs
# shows; sdists: the whole sdist unless named) or, for Debian, under /usr/share/gocode/src;
# `debpath`'s ROOT is the directory the Debian package installs, whole.
# `-` as VERSION: the docs name none, so none is checked.
SET_NAMES=(ts-dev ts-h1 ts-h2 ts-h3 ts-h4 ts-h5 go-dev go-h1 go-h2 go-h3 go-h4 go-h5
           rs-dev rs-h1 rs-h2 rs-h5 rs-fresh rs-16 ts-16 go-16 py-16 py-dev py-h1 py-h5 js-12dev js-12blind js-12flow
           js-vue2 js-old kt-dev kt-held php-dev php-held lua-dev lua-held pl-dev pl-held sh-held)
declare -A SETS=(
  # zod 3.23.8 was in issue 3's run but holds only `.d.ts`; later rounds dropped it.
  [ts-dev]="npm rxjs 7.8.1 package
            npm effect 3.10.0 package/src
            npm @tanstack/table-core 8.20.5 package"
  # fp-ts 2.16.6 dropped unread (no `.ts` sources).
  [ts-h1]="npm @tanstack/query-core 5.40.0 package
           npm @trpc/server 10.45.2 package
           npm immer 10.1.1 package
           npm mobx 6.12.3 package"
  # The third round also measured @reduxjs/toolkit 2.2.7 beside this set's 2.2.5; no set holds it.
  [ts-h2]="npm @reduxjs/toolkit 2.2.5 package
           npm @tanstack/table-core 8.17.3 package"
  [ts-h3]="npm @effect/platform 0.69.13 package
           npm @tanstack/vue-query 5.59.16 package
           npm @preact/signals-core 1.8.0 package
           npm @tanstack/history 1.61.1 package"
  [ts-h4]="npm prosemirror-model 1.22.3 package
           npm prosemirror-transform 1.10.0 package
           npm prosemirror-state 1.4.3 package
           npm @tiptap/core 2.6.6 package
           npm @remix-run/router 1.19.2 package"
  # @effect/rpc 0.44.10 could not be packed.
  [ts-h5]="npm @effect/cli 0.48.16 package
           npm @effect/experimental 0.30.10 package
           npm @effect/sql 0.18.10 package
           npm @tanstack/form-core 0.33.0 package
           npm @tanstack/store 0.5.5 package
           npm @tanstack/virtual-core 3.10.8 package
           npm @trpc/client 10.45.2 package"
  [go-dev]="gostd net - ; gostd encoding - ; gostd database -"
  [go-h1]="deb golang-github-spf13-cobra-dev 1.6.1 github.com/spf13/cobra
           deb golang-github-stretchr-testify-dev 1.8.1 github.com/stretchr/testify
           deb golang-github-spf13-pflag-dev 1.0.6 github.com/spf13/pflag"
  [go-h2]="gostd go/ast - ; gostd text/template -"
  [go-h3]="gostd archive/tar - ; gostd crypto/tls -"
  [go-h4]="gostd go/types - ; gostd compress -
           deb golang-github-gorilla-mux-dev 1.8.0 github.com/gorilla/mux
           deb golang-github-sirupsen-logrus-dev 1.9.0 github.com/sirupsen/logrus"
  # The docs give no versions here: whatever the archive has is installed, and the figures
  # hold only for Debian 12's (fsnotify 1.6.0, go-spew 1.1.1, blackfriday 1.6.0, errors 0.9.1,
  # hcl 1.0.0). blackfriday and hcl are v1 (hcl v2's 127 files do not fit the set's 57).
  # go-h1's cobra pulls in blackfriday v2, which lands in blackfriday/v2 and so in this corpus.
  [go-h5]="deb golang-github-fsnotify-fsnotify-dev - github.com/fsnotify/fsnotify
           deb golang-github-davecgh-go-spew-dev - github.com/davecgh/go-spew
           deb golang-github-russross-blackfriday-dev - github.com/russross/blackfriday
           deb golang-github-pkg-errors-dev - github.com/pkg/errors
           deb golang-github-hashicorp-hcl-dev - github.com/hashicorp/hcl"
  [rs-dev]="crate tokio 1.54.1 src ; crate hyper 1.12.0 src
            crate axum 0.8.9 src ; crate tantivy 0.27.0 src"
  [rs-h1]="crate h2 0.4.20 src ; crate clap_builder 4.6.7 src ; crate futures-util 0.3.34 src"
  [rs-h2]="crate serde_json 1.0.154 src ; crate regex-automata 0.4.19 src
           crate tracing-subscriber 0.3.23 src"
  # Rust and Python had no third or fourth set; their fresh set was measured beside the fifth.
  [rs-h5]="crate bytes 1.12.2 src ; crate mio 1.2.5 src ; crate indexmap 2.14.2 src
           crate regex-syntax 0.8.12 src ; crate nom 7.1.3 src"
  # The fresh crates of the ninth session (benchmarks.md, "Fresh held-back sets"), re-run since.
  [rs-fresh]="crate rustix 1.1.6 src ; crate nix 0.31.4 src ; crate time 0.3.55 src
              crate petgraph 0.8.3 src ; crate rayon 1.12.0 src ; crate hashbrown 0.17.2 src
              crate ignore 0.4.35 src ; crate winnow 1.0.5 src"
  # Never looked at while developing: measured once, side by side, in the sixteenth session.
  [ts-16]="npm @trpc/server 11.25.2 package/src ; npm @tanstack/db 0.15.2 package/src
           npm @tanstack/router-core 1.171.39 package ; npm @tanstack/solid-query 5.107.1 package
           npm prosemirror-view 1.44.0 package"
  [go-16]="gostd regexp - ; gostd image -
           deb golang-github-gorilla-websocket-dev 1.5.0 github.com/gorilla/websocket
           deb golang-github-urfave-cli-dev 1.22.9 github.com/urfave/cli
           deb golang-github-spf13-viper-dev 1.10.1 github.com/spf13/viper"
  [py-16]="pypi packaging 24.1 ; pypi tomlkit 0.13.2 ; pypi urllib3 2.2.3 ; pypi jsonschema 4.23.0
           pypi cattrs 24.1.2"
  [rs-16]="crate itertools 0.14.0 src ; crate chrono 0.4.45 src ; crate crossbeam-channel 0.5.17 src
           crate anyhow 1.0.105 src ; crate bstr 1.14.0 src ; crate log 0.4.35 src
           crate memchr 2.8.3 src ; crate toml_edit 0.25.20+spec-1.1.0 src"
  # The twelfth session's JavaScript (benchmarks.md, "Twelfth session"): developed on, blind,
  # and the Flow sources held back. npm packages, unpacked like the TypeScript ones.
  [js-12dev]="npm vue-router 3.6.5 package/src
              npm element-ui 2.15.14 package/packages
              npm element-ui 2.15.14 package/src
              npm eslint-plugin-vue 9.28.0 package/lib"
  [js-12blind]="npm ajv 8.17.1 package ; npm axios 1.7.7 package ; npm backbone 1.6.0 package
                npm dayjs 1.11.13 package ; npm express 4.21.0 package ; npm jquery 3.7.1 package
                npm knex 3.1.0 package ; npm lodash 4.17.21 package ; npm moment 2.30.1 package
                npm qs 6.13.0 package ; npm react-dom 18.3.1 package ; npm underscore 1.13.7 package
                npm vue 3.4.38 package ; npm webpack 5.94.0 package"
  [js-12flow]="npm vue 2.6.14 package/src
               npm react-native 0.72.17 package/Libraries"
  # The thirteenth session's Vue 2 applications and old libraries.
  [js-vue2]="npm @vuepress/core 1.9.10 package/lib ; npm vuetify 2.7.2 package/lib
             npm @vue/cli-ui 4.5.19 package/src ; npm buefy 0.9.29 package/src"
  [js-old]="npm toastr 2.1.4 package ; npm bootbox 5.5.3 package ; npm nprogress 0.2.0 package
            npm store 2.0.12 package ; npm keymaster 1.6.2 package ; npm mousetrap 1.6.5 package
            npm pubsub-js 1.9.4 package"
  # The keyword outline's languages (2026-12-06): developed on (-dev) and held back (-held).
  [kt-dev]="npm react-native-screens 4.30.1 package/android"
  [kt-held]="npm react-native-reanimated 4.8.0 package/android
             npm react-native-gesture-handler 3.5.0 package/android
             npm expo-camera 58.0.10 package/android ; npm expo-file-system 58.0.16 package/android
             npm @react-native-async-storage/async-storage 3.1.1 package/android"
  [php-dev]="debpath php-symfony-console 5.4.53 /usr/share/php/Symfony/Component/Console
             debpath php-doctrine-dbal 3.6.1 /usr/share/php/Doctrine/DBAL"
  [php-held]="debpath php-monolog 2.9.1 /usr/share/php/Monolog ; debpath php-twig 3.5.1 /usr/share/php/Twig
              debpath php-guzzlehttp-guzzle 7.4.5 /usr/share/php/GuzzleHttp
              debpath php-league-commonmark 2.3.9 /usr/share/php/League/CommonMark
              debpath php-composer-semver 3.3.2 /usr/share/php/Composer/Semver"
  [lua-dev]="debpath lua-penlight 1.13.1 /usr/share/lua/5.1/pl"
  [lua-held]="debpath lua-busted 2.1.1 /usr/share/lua/5.1/busted ; debpath lua-luassert 1.9.0 /usr/share/lua/5.1/luassert
              debpath lua-cliargs 3.0-2 /usr/share/lua/5.1/cliargs ; debpath lua-say 1.4.1 /usr/share/lua/5.1/say
              debpath lua-term 0.07 /usr/share/lua/5.1/term"
  [pl-dev]="debpath perl-modules-5.36 5.36.0 /usr/share/perl/5.36"
  [pl-held]="debpath liblog-log4perl-perl 1.57 /usr/share/perl5/Log ; debpath libdpkg-perl 1.21.22 /usr/share/perl5/Dpkg
             debpath debconf 1.5.82 /usr/share/perl5/Debconf"
  [sh-held]="debpath linux-perf 6.1.187 /usr/lib/perf-core/tests/shell"
  [py-dev]="pypi click 8.1.7 ; pypi rich 13.7.1 ; pypi flask 3.0.3"
  [py-h1]="pypi httpx 0.27.0 ; pypi starlette 0.37.2 ; pypi jinja2 3.1.4"
  # The docs name no root for these; the round's files and definitions (62 files, 1,206)
  # fit the package directories, not the whole sdists (typer's holds 440 files).
  [py-h5]="pypi marshmallow 3.21.3 src/marshmallow ; pypi werkzeug 3.0.3 src/werkzeug
           pypi pluggy 1.5.0 src/pluggy ; pypi itsdangerous 2.2.0 src/itsdangerous
           pypi typer 0.12.3 typer"
)
declare -A LANGUAGE=([ts]=typescript [js]=javascript [go]=go [rs]=rust [py]=python [kt]=kotlin [php]=php [lua]=lua
                     [pl]=perl [sh]=shell)
GO_SRC=/usr/share/go-1.19/src
GOCODE=/usr/share/gocode/src

die() { echo "corpora.sh: $*" >&2; exit 1; }
say() { echo "corpora.sh: $*" >&2; }

(($# >= 1)) || die "usage: $0 DIR [SET…]   (SET: ${SET_NAMES[*]})"
mkdir -p "$1" || die "cannot create $1"
DIR=$(cd "$1" && pwd)
shift
(($#)) && wanted=("$@") || wanted=("${SET_NAMES[@]}")
for set in "${wanted[@]}"; do
  [[ -v SETS[$set] ]] || die "unknown set \`$set\` (known: ${SET_NAMES[*]})"
done

# Unpacks archive $1 into $2 by way of a scratch directory, so an interrupted run leaves no
# half-unpacked corpus that the next run would take as done.
unpack() {
  local archive=$1 dest=$2 strip=${3:-0}
  rm -rf "$dest.part" && mkdir -p "$dest.part"
  tar -xzf "$archive" -C "$dest.part" --strip-components="$strip" || die "cannot unpack $archive"
  mv "$dest.part" "$dest"
}

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

as_root() { if ((EUID)); then sudo "$@"; else "$@"; fi; }

# Installs Debian package $1 unless it is; checks its upstream version starts with $2.
deb() {
  local pkg=$1 want=$2 have
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
    say "apt-get install $pkg"
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$pkg" >&2 \
      || die "apt-get install $pkg failed (apt-get update first? \`apt-cache policy $pkg\` shows what the archive has)"
  fi
  have=$(dpkg-query -W -f='${Version}' "$pkg")
  # A native package's version has no Debian revision after it (libdpkg-perl 1.21.22).
  if [[ $want != - && $have != "$want" && $have != "$want"[-~+]* ]]; then
    die "$pkg is $have here, the benchmark measured $want"
  fi
}

# Prints the corpus root of one package, fetching it first if it is not there yet.
fetch() {
  local kind=$1 name=$2 version=$3 root=${4:-} dest tmp
  case $kind in
    npm)
      dest=$DIR/ts/$(echo "${name#@}" | tr / -)-$version
      if [[ ! -d $dest ]]; then
        say "npm pack $name@$version"
        tmp=$(mktemp -d -p "$SCRATCH")
        (cd "$tmp" && npm pack --loglevel=error "$name@$version" >/dev/null) || die "npm pack $name@$version failed"
        unpack "$tmp"/*.tgz "$dest"
      fi ;;
    pypi)
      dest=$DIR/py/$name-$version
      if [[ ! -d $dest ]]; then
        say "pip download $name==$version"
        tmp=$(mktemp -d -p "$SCRATCH")
        # The sdists were measured: they hold the tests and docs a wheel leaves out.
        pip download --quiet --no-binary :all: --no-deps -d "$tmp" "$name==$version" >&2 \
          || die "pip download $name==$version failed"
        unpack "$tmp"/*.tar.gz "$dest" 1
      fi ;;
    crate)
      dest=$DIR/rs/$name-$version
      if [[ ! -d $dest ]]; then
        say "crates.io $name $version"
        tmp=$(mktemp -d -p "$SCRATCH")
        curl -fsSL -o "$tmp/c.crate" "https://static.crates.io/crates/$name/$name-$version.crate" \
          || die "cannot download crate $name $version from static.crates.io"
        unpack "$tmp/c.crate" "$dest" 1
      fi ;;
    gostd)
      [[ -d $GO_SRC/$name ]] || deb golang-1.19-src -
      dest=$GO_SRC/$name ;;
    deb)
      deb "$name" "$version"
      dest=$GOCODE ;;
    debpath)
      deb "$name" "$version"
      dest=$root
      root= ;;
    *) die "unknown kind $kind" ;;
  esac
  dest=$dest${root:+/$root}
  [[ -d $dest ]] || die "$dest: not there after fetching $name $version"
  echo "$dest"
}

for set in "${wanted[@]}"; do
  args=()
  while read -r kind name version root; do
    [[ -n $kind ]] || continue
    corpus=$(fetch "$kind" "$name" "$version" "$root") || exit 1
    args+=(--corpus "${LANGUAGE[${set%%-*}]}=$corpus")
  done < <(tr ';' '\n' <<<"${SETS[$set]}")
  echo "# $set" >&2
  echo "${args[*]}"
done
