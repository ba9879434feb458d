#!/usr/bin/env bash
# The quick start: installs what is missing, builds `bundlekit`, and shows the main job on a
# real Info.plist: inspect it, edit it in place (format kept, written atomically), convert it.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh
swift build -c release --product bundlekit
bundlekit=.build/release/bundlekit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/Info.plist" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleIdentifier</key>
	<string>com.example.demo</string>
	<key>CFBundleShortVersionString</key>
	<string>1.4.0</string>
	<key>CFBundleVersion</key>
	<string>41</string>
	<key>CFBundleURLTypes</key>
	<array>
		<dict>
			<key>CFBundleURLSchemes</key>
			<array>
				<string>demo</string>
			</array>
		</dict>
	</array>
</dict>
</plist>
PLIST
set -x
"$bundlekit" plist lint "$work/Info.plist"
"$bundlekit" plist get "$work/Info.plist" CFBundleURLTypes.0.CFBundleURLSchemes.0
"$bundlekit" plist set "$work/Info.plist" CFBundleVersion 42
"$bundlekit" plist convert "$work/Info.plist" --format binary1 -o "$work/Info.bplist"
"$bundlekit" plist print "$work/Info.bplist"
"$bundlekit" plist convert "$work/Info.bplist" --format json -o -
