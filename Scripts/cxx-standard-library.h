// The C++ standard library headers that BoringSSL's headers and sources include (swift-crypto
// and swift-nio-ssl each compile a copy of BoringSSL for the translate package's dependencies).
// Scripts/test.sh precompiles them for its debug builds' C++ files: see there.
//
// Only C++ headers: a C library header here would come before a source's own feature macros
// (_FILE_OFFSET_BITS). These pull in some C headers anyway (stdio.h among them); test.sh says
// which objects that changes.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <version>
