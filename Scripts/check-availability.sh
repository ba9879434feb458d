#!/usr/bin/env bash
# Fails when a source file uses an API newer than the platforms Package.swift declares
# (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1) without an availability guard on the
# same or the line above (`if #available`, `@available`). It cannot compile for Apple's
# platforms here, so it reads: each pattern below is an API and the release that brought it.
set -euo pipefail
cd "$(dirname "$0")/.."
# pattern ::: API (first release)
checks=(
  'String\(validating: ::: String(validating:as:) (macOS 15, iOS 18)'
  'import Synchronization ::: Synchronization: Mutex, Atomic (macOS 15, iOS 18)'
  '\bMutex< ::: Mutex (macOS 15, iOS 18)'
  '\bAtomic< ::: Atomic (macOS 15, iOS 18)'
  '\b(U)?Int128\b ::: Int128, UInt128 (macOS 15, iOS 18)'
  '\b(Raw|Mutable|UTF8)?Span\b ::: Span, RawSpan, UTF8Span (macOS 26, iOS 26)'
  '\.span\b ::: .span properties (macOS 26, iOS 26)'
  '\bInlineArray\b ::: InlineArray (macOS 26, iOS 26)'
  'import Observation|@Observable ::: Observation (macOS 14, iOS 17)'
  '\.makeStream\( ::: AsyncStream.makeStream (macOS 14, iOS 17)'
  'withDiscardingTaskGroup ::: withDiscardingTaskGroup (macOS 14, iOS 17)'
)
status=0
files=$(find Sources Packages/BundleKitTranslate/Sources Plugins -name '*.swift' 2>/dev/null)
for check in "${checks[@]}"; do
  pattern=${check%% ::: *}
  api=${check#* ::: }
  while IFS= read -r hit; do
    [[ -z "$hit" ]] && continue
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    previous=$(sed -n "$((line > 1 ? line - 1 : 1))p" "$file")
    current=$(sed -n "${line}p" "$file")
    # Comments and documentation may name an API.
    if [[ "$current" =~ ^[[:space:]]*// ]]; then continue; fi
    if [[ "$current$previous" == *"#available"* || "$current$previous" == *"@available"* ]]; then
      continue
    fi
    echo "$file:$line: error: $api is newer than the declared platforms; guard it with #available"
    status=1
  done < <(grep -nE "$pattern" $files; [[ $? -le 1 ]])
done
if [[ $status -eq 0 ]]; then
  echo "check-availability: no API newer than macOS 13 / iOS 16 / tvOS 16 / watchOS 9 / visionOS 1 used unguarded (${#checks[@]} patterns)"
fi
exit $status
