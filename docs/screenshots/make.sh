#!/bin/sh
# Regenerates the workbench screenshots in this folder (offscreen; needs a build in build/ and pngquant).
# Every colour mode on YOLOv8n and ResNet50 (each with another chart tab), the latency delta after an edit
# file, a comparison with another export, and a drag edit in progress (bpuscope-bench's --shots harness holds the slider mid-drag).
set -eu
cd "$(dirname "$0")/../.."
out=docs/screenshots
shot() { QT_QPA_PLATFORM=offscreen build/app/bpuscope "$@"; }
for m in yolov8n resnet50; do
    shot samples/$m.onnx --color-by placement --chart latency --screenshot $out/$m-placement.png
    shot samples/$m.onnx --color-by padding --chart padding --screenshot $out/$m-padding.png
    shot samples/$m.onnx --color-by intensity --chart roofline --screenshot $out/$m-intensity.png
    shot samples/$m.onnx --color-by latency --chart ops --screenshot $out/$m-latency.png
done
shot samples/yolov8n.onnx --color-by delta --edits $out/yolov8n-edits.json --select /model.22/cv3.0/cv3.0.2/Conv \
    --screenshot $out/yolov8n-delta.png
shot samples/resnet50.onnx --color-by delta --edits $out/resnet50-edits.json --select /layer4/layer4.0/conv2/Conv \
    --screenshot $out/resnet50-delta.png
# File > Compare With...: ResNet-18 against the same network re-exported at 256x256 with a Softmax.
shot tests/data/compare/resnet18.onnx --compare tests/data/compare/resnet18_softmax256.onnx --select /conv1/Conv \
    --screenshot $out/resnet18-compare.png
tmp=$(mktemp -d)
QT_QPA_PLATFORM=offscreen build/app/bpuscope-bench --shots="$tmp"
cp "$tmp/yolov8n-drag.png" "$tmp/resnet50-drag.png" $out/
rm -rf "$tmp"
pngquant --force --skip-if-larger --quality 70-95 --ext .png $out/*.png
