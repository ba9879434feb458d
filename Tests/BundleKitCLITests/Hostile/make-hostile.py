#!/usr/bin/env python3
"""Writes a corpus of hostile projects: what a cloned repository or a pull request can hold
to crash, hang or exhaust a CI job that runs `bundlekit version`, `bump`, `strings lint` on
it. Each case is a folder under OUT; cases.json lists them with the command to run and what
must come out (a located error naming a file, or exit 0).

    make-hostile.py OUT

Every case is written by this script (no file from elsewhere); the project shape is a small
Xcode project with one app target whose build number comes from an .xcconfig.
"""
import json
import shutil
import os
import sys

PBXPROJ_HEAD = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n"


def project(targets=1, xcconfig=True, infoplist="App/Info.plist"):
    """A project.pbxproj with `targets` app targets, each based on App.xcconfig."""
    lines = [PBXPROJ_HEAD]
    lines.append('\t\tF0000001 = {isa = PBXFileReference; path = App.xcconfig; sourceTree = "<group>"; };\n')
    lines.append('\t\tF0000002 = {isa = PBXGroup; children = (F0000001,); sourceTree = "<group>"; };\n')
    target_ids = []
    for index in range(targets):
        target, configs, debug = f"T{index:07d}", f"L{index:07d}", f"C{index:07d}"
        target_ids.append(target)
        base = "baseConfigurationReference = F0000001; " if xcconfig else ""
        lines.append(f'\t\t{target} = {{isa = PBXNativeTarget; buildConfigurationList = {configs}; '
                     f'name = App{index}; productType = "com.apple.product-type.application"; }};\n')
        lines.append(f'\t\t{configs} = {{isa = XCConfigurationList; buildConfigurations = ({debug},); }};\n')
        lines.append(f'\t\t{debug} = {{isa = XCBuildConfiguration; {base}buildSettings = {{ '
                     f'INFOPLIST_FILE = "{infoplist}"; MARKETING_VERSION = 1.0; }}; name = Release; }};\n')
    lines.append('\t\tP0000001 = {isa = PBXProject; buildConfigurationList = P0000002; '
                 f'mainGroup = F0000002; targets = ({", ".join(target_ids)}); }};\n')
    lines.append('\t\tP0000002 = {isa = XCConfigurationList; buildConfigurations = (P0000003,); };\n')
    lines.append('\t\tP0000003 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };\n')
    lines.append("\t};\n\trootObject = P0000001;\n}\n")
    return "".join(lines)


INFO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>CFBundleIdentifier</key>
\t<string>com.example.app</string>
\t<key>CFBundleShortVersionString</key>
\t<string>$(MARKETING_VERSION)</string>
\t<key>CFBundleVersion</key>
\t<string>$(CURRENT_PROJECT_VERSION)</string>
</dict>
</plist>
"""


SPEC_TARGET = """settings:
  CURRENT_PROJECT_VERSION: 3
  MARKETING_VERSION: 1.0
targets:
  App:
    type: application
    platform: iOS
    info:
      path: App/Info.plist
"""


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as file:
        file.write(text)


def app(root, xcconfig, targets=1, infoplist="App/Info.plist"):
    """An app project in `root` whose App.xcconfig is `xcconfig`."""
    write(os.path.join(root, "App.xcodeproj", "project.pbxproj"), project(targets, infoplist=infoplist))
    write(os.path.join(root, "App", "Info.plist"), INFO)
    if xcconfig is not None:
        write(os.path.join(root, "App.xcconfig"), xcconfig)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = []

    def case(name, expect, commands=(("version",), ("bump", "build", "--dry-run")), says=""):
        """`says`: what the error must say (the real cause, not a symptom it led to)."""
        cases.append({"name": name, "expect": expect, "says": says,
                      "commands": [list(c) for c in commands]})
        return os.path.join(out, name)

    # References: depth, length and size.
    app(case("deep-nesting", "error", says="nest more than 32 levels"),
        "CURRENT_PROJECT_VERSION = " + "$(" * 20000 + "A" + ")" * 20000 + "\n")
    chain = "".join(f"S{n} = $(S{n + 1})\n" for n in range(10000)) + "S10000 = 7\n"
    app(case("long-chain", "error", says="chain more than"), "CURRENT_PROJECT_VERSION = $(S0)\n" + chain)
    laughs = "".join(f"L{n} = $(L{n + 1})$(L{n + 1})\n" for n in range(40)) + "L40 = ha\n"
    app(case("billion-laughs", "error", says="grows past 64 KiB"), "CURRENT_PROJECT_VERSION = $(L0)\n" + laughs)
    root = case("include-doubling", "error", says="more than 100000")
    app(root, '#include "inc/0.xcconfig"\nCURRENT_PROJECT_VERSION = 3\n')
    for n in range(40):
        write(os.path.join(root, "inc", f"{n}.xcconfig"),
              f'#include "{n + 1}.xcconfig"\n#include "{n + 1}.xcconfig"\nX{n} = {n}\n')
    write(os.path.join(root, "inc", "40.xcconfig"), "LAST = 1\n")
    root = case("include-cycle", "error", says="includes itself")
    app(root, '#include "Other.xcconfig"\nCURRENT_PROJECT_VERSION = 3\n')
    write(os.path.join(root, "Other.xcconfig"), '#include "App.xcconfig"\n')
    app(case("missing-include", "error", says="Nowhere.xcconfig\": no such file"), '#include "Nowhere.xcconfig"\nCURRENT_PROJECT_VERSION = 3\n')

    # Files that never end or never open: /dev/zero behind links, FIFOs.
    app(case("include-dev-zero", "error", says="App.xcconfig:1: error: #include /dev/zero is outside the folders being read"), '#include "/dev/zero"\nCURRENT_PROJECT_VERSION = 3\n')
    root = case("xcconfig-dev-zero", "error", says="App.xcconfig is outside the folders being read")
    app(root, None)
    os.symlink("/dev/zero", os.path.join(root, "App.xcconfig"))
    root = case("infoplist-dev-zero", "error", says="App/Info.plist cannot be read")
    app(root, "CURRENT_PROJECT_VERSION = 3\n")
    os.remove(os.path.join(root, "App", "Info.plist"))
    os.symlink("/dev/zero", os.path.join(root, "App", "Info.plist"))
    root = case("pbxproj-dev-zero", "error", says="project.pbxproj: error: is not a regular file")
    app(root, "CURRENT_PROJECT_VERSION = 3\n")
    os.remove(os.path.join(root, "App.xcodeproj", "project.pbxproj"))
    os.symlink("/dev/zero", os.path.join(root, "App.xcodeproj", "project.pbxproj"))
    for name, path in (("fifo-infoplist", "App/Info.plist"), ("fifo-xcconfig", "App.xcconfig"),
                       ("fifo-pbxproj", "App.xcodeproj/project.pbxproj")):
        root = case(name, "error", says=path + (" cannot be read" if path.endswith(".plist") else ": error: is not a regular file"))
        app(root, "CURRENT_PROJECT_VERSION = 3\n")
        os.remove(os.path.join(root, path))
        os.mkfifo(os.path.join(root, path))
    lint = (("strings", "lint"),)
    root = case("strings-dev-zero", "error", lint, says="Localizable.strings: error: is not a regular file")
    write(os.path.join(root, "en.lproj", "Good.strings"), '"a" = "b";\n')
    os.symlink("/dev/zero", os.path.join(root, "en.lproj", "Localizable.strings"))
    root = case("strings-fifo", "error", lint, says="Localizable.strings: error: is not a regular file")
    os.makedirs(os.path.join(root, "en.lproj"))
    os.mkfifo(os.path.join(root, "en.lproj", "Localizable.strings"))
    root = case("catalog-invalid-utf8", "error", lint, says="Localizable.xcstrings:4:9: error: byte 0xe9 is not UTF-8")
    write(os.path.join(root, "Localizable.xcstrings"),
          b'{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "caf\xe9" : {}\n  },\n  "version" : "1.0"\n}\n', "wb")

    # Size: a workspace of nested groups, a project of many targets.
    root = case("nested-groups", "error", says="groups nest more than 256 deep")
    app(root, "CURRENT_PROJECT_VERSION = 3\n")
    body = '<Group location = "group:g">\n' * 100000 + '</Group>\n' * 100000
    write(os.path.join(root, "All.xcworkspace", "contents.xcworkspacedata"),
          '<?xml version="1.0" encoding="UTF-8"?>\n<Workspace version = "1.0">\n' + body + "</Workspace>\n")
    root = case("many-targets", "ok")
    app(root, "CURRENT_PROJECT_VERSION = 3\n", targets=5000)

    # Values that must not reach a log: a credentials file #included.
    root = case("secret-include", "error", says="defined nowhere")
    app(root, '#include "credentials.env"\nCURRENT_PROJECT_VERSION = $(UNDEFINED_SETTING)\n')
    write(os.path.join(root, "credentials.env"), "API_TOKEN = sk-live-0123456789abcdef-SECRET\n")

    # Secrets outside the checkout: a canary credentials file and an .xcconfig-shaped file
    # beside the cases (outside each case's tree), and the canary environment variable the
    # test sets (BUNDLEKIT_CANARY), which /proc/self/environ holds. No output may show any.
    outside = os.path.join(out, "outside")
    write(os.path.join(outside, "credentials"),
          "[default]\naws_access_key_id = AKIA-CANARY-ID\naws_secret_access_key = CANARY-CREDENTIALS-91c2\n")
    write(os.path.join(outside, "plain.xcconfig"), "TOKEN = CANARY-PLAIN-55aa\nCURRENT_PROJECT_VERSION = $(TOKEN)\n")
    secret = (("version",), ("version", "--format", "json"), ("bump", "build", "--dry-run"),
              ("bump", "version", "patch", "--dry-run"), ("bump", "build", "--dry-run", "--format", "json"))
    app(case("secret-proc-environ", "error", secret, says="is outside the folders being read"),
        '#include "' + "../" * 24 + 'proc/self/environ"\nCURRENT_PROJECT_VERSION = $(BUNDLEKIT_CANARY)\n')
    app(case("secret-credentials-absolute", "error", secret, says="is outside the folders being read"),
        f'#include "{outside}/credentials"\nCURRENT_PROJECT_VERSION = $(aws_secret_access_key)\n')
    app(case("secret-credentials-relative", "error", secret, says="is outside the folders being read"),
        '#include "../outside/credentials"\nCURRENT_PROJECT_VERSION = $(aws_secret_access_key)\n')
    root = case("secret-credentials-in-tree", "error", secret, says="line 1 is neither a setting")
    app(root, '#include "credentials"\nCURRENT_PROJECT_VERSION = $(aws_secret_access_key)\n')
    shutil.copy(os.path.join(outside, "credentials"), os.path.join(root, "credentials"))
    root = case("secret-environ-copy", "error", secret, says="holds a NUL byte")
    app(root, '#include "environ"\nCURRENT_PROJECT_VERSION = $(BUNDLEKIT_CANARY)\n')
    write(os.path.join(root, "environ"), b"PATH=/bin\0BUNDLEKIT_CANARY=CANARY-COPIED\0", "wb")
    root = case("secret-value-in-tree", "error", [c for c in secret if "patch" not in c], says="is not a version")
    app(root, '#include "Secrets.xcconfig"\nCURRENT_PROJECT_VERSION = $(TOKEN)\n')
    write(os.path.join(root, "Secrets.xcconfig"), "TOKEN = sk-live-CANARY-INTREE-0123456789\n")
    root = case("secret-xcodegen-configfiles", "error", secret, says="is outside the folders being read")
    write(os.path.join(root, "project.yml"), """name: App
configFiles:
  Debug: ../outside/plain.xcconfig
  Release: ../outside/plain.xcconfig
targets:
  App:
    type: application
    platform: iOS
    info:
      path: App/Info.plist
      properties:
        CFBundleVersion: $(CURRENT_PROJECT_VERSION)
        CFBundleShortVersionString: $(CURRENT_PROJECT_VERSION)
""")
    root = case("secret-tuist-xcconfig", "error", secret, says="is outside the folders being read")
    write(os.path.join(root, "Project.swift"), """import ProjectDescription

let project = Project(
    name: "App",
    settings: .settings(configurations: [
        .debug(name: "Debug", xcconfig: "../outside/plain.xcconfig"),
        .release(name: "Release", xcconfig: "../outside/plain.xcconfig"),
    ]),
    targets: [
        .target(
            name: "App",
            destinations: .iOS,
            product: .app,
            bundleId: "com.example.app",
            infoPlist: .extendingDefault(with: ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"]),
            sources: ["App/**"]
        ),
    ]
)
""")

    # A language is never a path: catalogs, .lproj folders.
    tables = (("strings", "lint"), ("strings", "compile", "--output-dir", "compiled/a/b"))
    root = case("catalog-language-path", "error", tables, says="is no language")
    write(os.path.join(root, "Menu.xcstrings"),
          '{"sourceLanguage":"en","strings":{"Menu":{"localizations":{"../../../escaped-hostile":'
          '{"stringUnit":{"state":"translated","value":"x"}}}}},"version":"1.0"}\n')
    root = case("lproj-dash", "error", tables, says="names no language")
    write(os.path.join(root, "en.lproj", "Localizable.strings"), '"a" = "b";\n')
    write(os.path.join(root, "-.lproj", "Localizable.strings"), '"a" = "c";\n')

    # Super-linear readers: each of these must finish in well under the time limit.
    version = (("version",),)
    root = case("spec-include-bomb", "ok", version)
    os.makedirs(root, exist_ok=True)
    os.symlink(".", os.path.join(root, "a"))
    os.symlink(".", os.path.join(root, "b"))
    write(os.path.join(root, "project.yml"),
          "name: App\ninclude: [a/s1.yml, b/s1.yml]\n" + SPEC_TARGET)
    for n in range(1, 33):
        nxt = f"include: [a/s{n + 1}.yml, b/s{n + 1}.yml]\n" if n < 32 else ""
        write(os.path.join(root, f"s{n}.yml"), nxt + f"settings:\n  X{n}: {n}\n")
    write(os.path.join(root, "App", "Info.plist"), INFO)
    root = case("spec-configs-by-targets", "ok", version)
    configs = "".join(f"  C{n}: {'debug' if n % 2 else 'release'}\n" for n in range(2000))
    targets = "".join(
        f"  T{n}:\n    type: framework\n    platform: iOS\n    info:\n      path: App/Info.plist\n"
        for n in range(400))
    write(os.path.join(root, "project.yml"),
          "name: App\nconfigs:\n" + configs
          + "settings:\n  base:\n    CURRENT_PROJECT_VERSION: 3\n    MARKETING_VERSION: 1.0\ntargets:\n"
          + targets)
    write(os.path.join(root, "App", "Info.plist"), INFO)
    root = case("spec-many-targets", "ok", version)
    write(os.path.join(root, "project.yml"),
          "name: App\nsettings:\n  CURRENT_PROJECT_VERSION: 3\n  MARKETING_VERSION: 1.0\ntargets:\n"
          + "".join(f"  T{n}: {{type: framework}}\n" for n in range(100000)))
    root = case("tuist-many-literals", "ok", version)
    write(os.path.join(root, "Project.swift"),
          'import ProjectDescription\n\nlet project = Project(\n    name: "App",\n    settings: .settings(base: [\n'
          + "".join(f'        "SETTING_{n}": "{n}",\n' for n in range(80000))
          + '        "CURRENT_PROJECT_VERSION": "3",\n        "MARKETING_VERSION": "1.0",\n    ]),\n'
          + '    targets: [.target(name: "App", destinations: .iOS, product: .app, bundleId: "a.b",\n'
          + '        infoPlist: .extendingDefault(with: ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"]))]\n)\n')
    units = "".join(f'<trans-unit id="k{n}"><source>s{n}</source><target>t{n}</target></trans-unit>'
                    for n in range(20000))
    root = case("one-line.xcloc", "error", (("strings", "import", "--dry-run"),), says="no such table")
    write(os.path.join(root, "Localized Contents", "fr.xliff"),
          '<?xml version="1.0" encoding="UTF-8"?><xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">'
          '<file original="App/en.lproj/Localizable.strings" source-language="en" target-language="fr" datatype="plaintext"><body>'
          + units + "</body></file></xliff>\n")

    with open(os.path.join(out, "cases.json"), "w") as file:
        json.dump(cases, file, indent=1)


if __name__ == "__main__":
    main()
