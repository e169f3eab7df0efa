#!/bin/bash
# usage: drop.sh BIN CATALOG OUT  -- copies 500 PNGs into a fresh inbox/bugs and times watch --once
B=$1; C=$2; O=$3; I=/tmp/thumbkit-drop-inbox-$$
rm -rf $I; mkdir -p $I/bugs
for f in ${DROP_SRC:-/tmp/scale/drop-src}/*.png; do n=$(basename $f .png); cp $f "$I/bugs/Drop $RANDOM$RANDOM $n.png"; done
s=$(date +%s.%N); $B watch $I --catalog $C --out $O --once --settle 0 -j 1 > /tmp/thumbkit-drop-$$.log 2>&1; rc=$?; e=$(date +%s.%N)
echo "500-file drop: $(echo "$e - $s" | bc) s rc=$rc ingested=$(grep -c ingested /tmp/thumbkit-drop-$$.log)"
rm -rf $I
