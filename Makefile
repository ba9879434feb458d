# make install [PREFIX=/usr/local]: builds bundlekit (and the translation helper beside it)
# in release mode and installs both into $(PREFIX)/bin. make uninstall removes them.
PREFIX ?= /usr/local
BIN = $(DESTDIR)$(PREFIX)/bin

.PHONY: build install uninstall test

build:
	swift build -c release --product bundlekit
	swift build -c release --package-path Packages/BundleKitTranslate --product bundlekit-translate

install: build
	install -d "$(BIN)"
	install -m 755 .build/release/bundlekit "$(BIN)/bundlekit"
	install -m 755 Packages/BundleKitTranslate/.build/release/bundlekit-translate "$(BIN)/bundlekit-translate"

uninstall:
	rm -f "$(BIN)/bundlekit" "$(BIN)/bundlekit-translate"

test:
	Scripts/test.sh
