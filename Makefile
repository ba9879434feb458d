# make install [PREFIX=/usr/local]: builds bundlekit (and its helpers beside it: translation,
# Swift extraction, Morse)
# in release mode and installs them into $(PREFIX)/bin. make uninstall removes them.
PREFIX ?= /usr/local
BIN = $(DESTDIR)$(PREFIX)/bin

.PHONY: build install uninstall test

build:
	swift build -c release --product bundlekit
	swift build -c release --product bundlekit-morse
	swift build -c release --package-path Packages/BundleKitTranslate --product bundlekit-translate
	swift build -c release --package-path Packages/BundleKitLocalize --product bundlekit-localize

install: build
	install -d "$(BIN)"
	install -m 755 .build/release/bundlekit "$(BIN)/bundlekit"
	install -m 755 .build/release/bundlekit-morse "$(BIN)/bundlekit-morse"
	install -m 755 Packages/BundleKitTranslate/.build/release/bundlekit-translate "$(BIN)/bundlekit-translate"
	install -m 755 Packages/BundleKitLocalize/.build/release/bundlekit-localize "$(BIN)/bundlekit-localize"

uninstall:
	rm -f "$(BIN)/bundlekit" "$(BIN)/bundlekit-morse" "$(BIN)/bundlekit-translate" "$(BIN)/bundlekit-localize"

test:
	Scripts/test.sh
