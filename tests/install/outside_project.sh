#!/usr/bin/env bash
# The installation as a user gets it (ctest runs this; CMakeLists.txt):
#   bash tests/install/outside_project.sh BUILD_DIR SOURCE_DIR
# installs the build into a scratch prefix (nothing is rebuilt), checks what landed there, runs
# the installed pcisim from elsewhere and from a moved copy of the prefix, builds the project in
# tests/install/consumer against the installed CMake package and again through pkg-config, runs
# both, and configures the source tree without tests with Catch2 hidden.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "outside_project: $*" >&2; exit 1; }
unset PCISIM_DATA_DIR

prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" > "$scratch/install.log"
for f in bin/pcisim bin/pcisim-tlm-example share/pcisim/scenarios/calibration.json \
         share/pcisim/scenarios/platforms/phi.json share/pcisim/docs/data/measurements.json \
         share/pcisim/docs/data/variants.json share/man/man1/pcisim.1 \
         share/bash-completion/completions/pcisim share/doc/pcisim/README.md \
         share/doc/pcisim/validation.md lib/cmake/pcisim/pcisimConfig.cmake \
         lib/pkgconfig/pcisim.pc include/pcisim/run/simulation.h include/pcisim/tlm/e1000_tlm.h; do
    [ -e "$prefix/$f" ] || fail "the installation has no $f"
done
[ -z "$(find "$prefix/include" -path '*tools*' -print -quit)" ] || fail "the tools' headers were installed"
# pcisim's warning flags are its own: no usage requirement and no pkg-config flag carries them.
if grep -rq -- '-W' "$prefix/lib/cmake/pcisim" "$prefix/lib/pkgconfig/pcisim.pc"; then
    fail "warning flags leak into the package: $(grep -r -- '-W' "$prefix/lib/cmake/pcisim" "$prefix/lib/pkgconfig/pcisim.pc")"
fi

# The installed program finds its data in its own prefix, from any directory, and after the
# whole prefix has been moved.
cd "$scratch"
mv "$prefix" "$scratch/moved"
prefix=$scratch/moved
"$prefix/bin/pcisim" help | grep -qx "data directory: $prefix/share/pcisim (installation)" ||
    fail "the moved installation does not find its data: $("$prefix/bin/pcisim" help | tail -n 1)"
scenario=$prefix/share/pcisim/scenarios/phi-32-66-82541.json
"$prefix/bin/pcisim" run "$scenario" -q --json "$scratch/run.json"
expected=$(sed -n 's/^  "tx_pps": \(.*\),$/\1/p' "$scratch/run.json")
[ -n "$expected" ] || fail "no tx_pps in the installed pcisim's results"
"$prefix/bin/pcisim" validate --case phi-32-66-82541-2.6.9 -q | grep -q "^validate: PASS" ||
    fail "the installed pcisim's validate --case phi-32-66-82541-2.6.9 does not pass"

# An outside project through the CMake package.
cmake -S "$source/tests/install/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release > "$scratch/consumer-configure.log" 2>&1 ||
    { cat "$scratch/consumer-configure.log"; fail "the outside project does not configure"; }
cmake --build "$scratch/consumer" > "$scratch/consumer-build.log" 2>&1 ||
    { cat "$scratch/consumer-build.log"; fail "the outside project does not build"; }
out=$("$scratch/consumer/consumer" "$scenario")
echo "$out"
grep -qx "tx_pps $expected" <<<"$out" || fail "the outside project got other results than pcisim run ($expected)"

# And through pkg-config.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
g++ "$source/tests/install/consumer/consumer.cpp" $(pkg-config --cflags pcisim) \
    $(pkg-config --libs pcisim) -o "$scratch/consumer-pc"
out=$("$scratch/consumer-pc" "$scenario")
grep -qx "tx_pps $expected" <<<"$out" || fail "the pkg-config build got other results than pcisim run"

# Without the tests the tree configures with no Catch2 at all.
cmake -S "$source" -B "$scratch/no-tests" -DPCISIM_BUILD_TESTS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON > "$scratch/no-tests.log" 2>&1 ||
    { cat "$scratch/no-tests.log"; fail "the tree does not configure without tests and Catch2"; }
echo "outside_project: ok"
