#!/usr/bin/env python3
"""Writes the Xcode project fixtures of the versioning tests, laid out as Xcode 15 writes
them (sections, comments, tabs, quoting), each modelled on what real projects do with
versions. Run from anywhere; it writes beside itself. The tests read the committed output."""
import hashlib
import os

ROOT = os.path.dirname(os.path.abspath(__file__))


def ident(*parts):
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:24].upper()


def quote(value):
    if value == "" or any(c not in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$/:.-" for c in value):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def settings_text(settings, indent):
    lines = []
    for key in sorted(settings):
        value = settings[key]
        if isinstance(value, list):
            items = "".join(f"{indent}\t{quote(v)},\n" for v in value)
            lines.append(f"{indent}{key} = (\n{items}{indent});")
        else:
            lines.append(f"{indent}{quote(key) if '[' in key else key} = {quote(value)};")
    return "\n".join(lines)


PRODUCT_EXTENSIONS = {
    "com.apple.product-type.application": "app",
    "com.apple.product-type.app-extension": "appex",
    "com.apple.product-type.application.watchapp2-container": "app",
    "com.apple.product-type.application.watchapp2": "app",
    "com.apple.product-type.bundle.unit-test": "xctest",
    "com.apple.product-type.bundle.ui-testing": "xctest",
    "com.apple.product-type.framework": "framework",
    "com.apple.product-type.xpc-service": "xpc",
    "com.apple.product-type.tool": "",
    "com.apple.product-type.library.static": "a",
}


def project(folder, name, targets, project_configs, groups=(), project_base=None, synchronized=(),
            object_version=56):
    """targets: dicts with name, type, configs {Debug: {...}, Release: {...}}, base (xcconfig
    path as written in a group, optional), embeds [(phase name, spec, dstPath, [target names])].
    groups: (group path, [file names]) under the main group. project_base: an xcconfig file
    name from groups."""
    pid = ident(folder, name)
    objects = {}  # section -> list of (id, comment, body)

    def add(section, oid, comment, body):
        objects.setdefault(section, []).append((oid, comment, body))

    # Files and groups.
    file_ids = {}
    main_children = []
    for group_path, names in groups:
        gid = ident(folder, "group", group_path)
        children = []
        for file_name in names:
            fid = ident(folder, "file", group_path, file_name)
            file_ids[f"{group_path}/{file_name}"] = fid
            kind = "text.xcconfig" if file_name.endswith(".xcconfig") else "text.plist.xml"
            add("PBXFileReference", fid, file_name,
                f"{{isa = PBXFileReference; lastKnownFileType = {kind}; path = {quote(file_name)}; sourceTree = \"<group>\"; }}")
            children.append((fid, file_name))
        kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in children)
        add("PBXGroup", gid, group_path,
            f"{{\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n{kids}\t\t\t);\n\t\t\tpath = {quote(group_path)};\n\t\t\tsourceTree = \"<group>\";\n\t\t}}")
        main_children.append((gid, group_path))
    # Xcode 16's synchronized folders: the files are the folder's, not listed.
    for folder_path in synchronized:
        sid = ident(folder, "synchronized", folder_path)
        file_ids[folder_path] = sid
        add("PBXFileSystemSynchronizedRootGroup", sid, folder_path,
            f"{{\n\t\t\tisa = PBXFileSystemSynchronizedRootGroup;\n\t\t\tpath = {quote(folder_path)};\n\t\t\tsourceTree = \"<group>\";\n\t\t}}")
        main_children.append((sid, folder_path))
    products_gid = ident(folder, "Products")
    product_children = []
    target_ids = {}
    product_ids = {}
    for target in targets:
        tid = ident(folder, "target", target["name"])
        target_ids[target["name"]] = tid
        if target["type"] is None:
            continue  # an aggregate target builds no product
        extension = PRODUCT_EXTENSIONS[target["type"]]
        product = f"{target['name']}.{extension}" if extension else target["name"]
        prid = ident(folder, "product", target["name"])
        product_ids[target["name"]] = (prid, product)
        add("PBXFileReference", prid, product,
            f"{{isa = PBXFileReference; explicitFileType = wrapper.{'application' if extension == 'app' else 'app-extension' if extension == 'appex' else 'cfbundle'}; includeInIndex = 0; path = {quote(product)}; sourceTree = BUILT_PRODUCTS_DIR; }}")
        product_children.append((prid, product))
    kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in product_children)
    add("PBXGroup", products_gid, "Products",
        f"{{\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n{kids}\t\t\t);\n\t\t\tname = Products;\n\t\t\tsourceTree = \"<group>\";\n\t\t}}")
    main_gid = ident(folder, "main")
    kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in main_children + [(products_gid, "Products")])
    add("PBXGroup", main_gid, None,
        f"{{\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n{kids}\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t}}")

    def configuration_list(owner, owner_comment, configs, base_path, anchor=None):
        ids = []
        for config_name in ["Debug", "Release"]:
            cid = ident(folder, owner, "config", config_name)
            base = ""
            if base_path:
                base = f"\t\t\tbaseConfigurationReference = {file_ids[base_path]} /* {os.path.basename(base_path)} */;\n"
            if anchor:
                base = (f"\t\t\tbaseConfigurationReferenceAnchor = {file_ids[anchor[0]]} /* {anchor[0]} */;\n"
                        f"\t\t\tbaseConfigurationReferenceRelativePath = {quote(anchor[1])};\n")
            body = (f"{{\n\t\t\tisa = XCBuildConfiguration;\n{base}\t\t\tbuildSettings = {{\n"
                    f"{settings_text(configs[config_name], chr(9) * 4)}\n\t\t\t}};\n\t\t\tname = {config_name};\n\t\t}}")
            add("XCBuildConfiguration", cid, config_name, body)
            ids.append((cid, config_name))
        lid = ident(folder, owner, "list")
        kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in ids)
        add("XCConfigurationList", lid, f'Build configuration list for {owner_comment}',
            f"{{\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n{kids}\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t}}")
        return lid

    target_entries = []
    for target in targets:
        tid = target_ids[target["name"]]
        phases = []
        for phase_name, spec, dst_path, embedded in target.get("embeds", []):
            phid = ident(folder, target["name"], "phase", phase_name)
            files = []
            for other in embedded:
                bid = ident(folder, target["name"], "embed", other)
                prid, product = product_ids[other]
                add("PBXBuildFile", bid, f"{product} in {phase_name}",
                    f"{{isa = PBXBuildFile; fileRef = {prid} /* {product} */; settings = {{ATTRIBUTES = (RemoveHeadersOnCopy, ); }}; }}")
                files.append((bid, f"{product} in {phase_name}"))
            kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in files)
            add("PBXCopyFilesBuildPhase", phid, phase_name,
                f"{{\n\t\t\tisa = PBXCopyFilesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tdstPath = {quote(dst_path)};\n\t\t\tdstSubfolderSpec = {spec};\n\t\t\tfiles = (\n{kids}\t\t\t);\n\t\t\tname = {quote(phase_name)};\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t}}")
            phases.append((phid, phase_name))
        if target["type"] is None:
            lid = configuration_list(target["name"], f'PBXAggregateTarget "{target["name"]}"', target["configs"], target.get("base"))
            add("PBXAggregateTarget", tid, target["name"],
                f"{{\n\t\t\tisa = PBXAggregateTarget;\n\t\t\tbuildConfigurationList = {lid};\n"
                f"\t\t\tbuildPhases = (\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n"
                f"\t\t\tname = {quote(target['name'])};\n\t\t\tproductName = {quote(target['name'])};\n\t\t}}")
            target_entries.append((tid, target["name"]))
            continue
        lid = configuration_list(target["name"], f'PBXNativeTarget "{target["name"]}"', target["configs"], target.get("base"),
                                 target.get("anchor"))
        prid, product = product_ids[target["name"]]
        kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in phases)
        add("PBXNativeTarget", tid, target["name"],
            f"{{\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = {lid} /* Build configuration list for PBXNativeTarget \"{target['name']}\" */;\n"
            f"\t\t\tbuildPhases = (\n{kids}\t\t\t);\n\t\t\tbuildRules = (\n\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n"
            f"\t\t\tname = {quote(target['name'])};\n\t\t\tproductName = {quote(target['name'])};\n"
            f"\t\t\tproductReference = {prid} /* {product} */;\n\t\t\tproductType = \"{target['type']}\";\n\t\t}}")
        target_entries.append((tid, target["name"]))
    plid = configuration_list("project", f'PBXProject "{name}"', project_configs,
                              project_base if not isinstance(project_base, tuple) else None,
                              project_base if isinstance(project_base, tuple) else None)
    kids = "".join(f"\t\t\t\t{c} /* {n} */,\n" for c, n in target_entries)
    add("PBXProject", pid, "Project object",
        f"{{\n\t\t\tisa = PBXProject;\n\t\t\tbuildConfigurationList = {plid} /* Build configuration list for PBXProject \"{name}\" */;\n"
        f"\t\t\tcompatibilityVersion = \"Xcode 14.0\";\n\t\t\tdevelopmentRegion = en;\n\t\t\thasScannedForEncodings = 0;\n"
        f"\t\t\tknownRegions = (\n\t\t\t\ten,\n\t\t\t\tBase,\n\t\t\t);\n\t\t\tmainGroup = {main_gid};\n"
        f"\t\t\tproductRefGroup = {products_gid} /* Products */;\n\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n"
        f"\t\t\ttargets = (\n{kids}\t\t\t);\n\t\t}}")

    out = [f"// !$*UTF8*$!\n{{\n\tarchiveVersion = 1;\n\tclasses = {{\n\t}};\n\tobjectVersion = {object_version};\n\tobjects = {{\n"]
    for section in sorted(objects):
        out.append(f"\n/* Begin {section} section */\n")
        for oid, comment, body in sorted(objects[section]):
            label = f" /* {comment} */" if comment else ""
            out.append(f"\t\t{oid}{label} = {body};\n")
        out.append(f"/* End {section} section */\n")
    out.append(f"\t}};\n\trootObject = {pid} /* Project object */;\n}}\n")
    path = os.path.join(ROOT, folder, f"{name}.xcodeproj", "project.pbxproj")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write("".join(out))


def write(path, text):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as file:
        file.write(text)


PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleDevelopmentRegion</key>
	<string>$(DEVELOPMENT_LANGUAGE)</string>
	<key>CFBundleExecutable</key>
	<string>$(EXECUTABLE_NAME)</string>
	<key>CFBundleIdentifier</key>
	<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
	<key>CFBundleShortVersionString</key>
	<string>{version}</string>
	<key>CFBundleVersion</key>
	<string>{build}</string>
</dict>
</plist>
"""

APP = "com.apple.product-type.application"
EXTENSION = "com.apple.product-type.app-extension"
TESTS = "com.apple.product-type.bundle.unit-test"


def both(**settings):
    return {"Debug": dict(settings), "Release": dict(settings)}


# 1. Versions at the project level only: every target takes them (a new Xcode 15 project
#    with "Build Settings > Versioning" edited on the project).
project("ProjectLevel", "Notes",
        [{"name": "Notes", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", PRODUCT_BUNDLE_IDENTIFIER="com.example.notes")}],
        both(CURRENT_PROJECT_VERSION="7", MARKETING_VERSION="1.4", SDKROOT="iphoneos"))

# 2. A target that only forwards the project's number, and an Info.plist that names it
#    (how Xcode 13+ migrates old projects: CURRENT_PROJECT_VERSION = "$(CURRENT_PROJECT_VERSION)").
project("Forwarding", "Forward",
        [{"name": "Forward", "type": APP,
          "configs": both(INFOPLIST_FILE="Forward/Info.plist", CURRENT_PROJECT_VERSION="$(CURRENT_PROJECT_VERSION)",
                          MARKETING_VERSION="$(inherited)")}],
        both(CURRENT_PROJECT_VERSION="12", MARKETING_VERSION="3.0.1"),
        groups=[("Forward", ["Info.plist"])])
write("Forwarding/Forward/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))

# 3. .xcconfig files in a sibling Configuration/ folder, attached by baseConfigurationReference,
#    two levels of #include, $(inherited) and a variable of the team's own (APP_BUILD).
project("Configured", "Shop",
        [{"name": "Shop", "type": APP, "base": "../Configuration/Shop.xcconfig",
          "configs": both(INFOPLIST_FILE="Shop/Info.plist", PRODUCT_BUNDLE_IDENTIFIER="com.example.shop")}],
        both(SDKROOT="iphoneos"), groups=[("Shop", ["Info.plist"]), ("../Configuration", ["Shop.xcconfig", "Project.xcconfig"])],
        project_base="../Configuration/Project.xcconfig")
write("Configured/Shop/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))
write("Configuration/Shop.xcconfig", "// The Shop target.\n#include \"Shared/Base.xcconfig\"\n\nPRODUCT_NAME = Shop\nMARKETING_VERSION = $(inherited)\n")
write("Configuration/Shared/Base.xcconfig", "// Settings every target shares.\n#include \"Versions.xcconfig\"\n#include? \"Local.xcconfig\"\n\nCURRENT_PROJECT_VERSION = $(APP_BUILD)\n")
write("Configuration/Shared/Versions.xcconfig", "// Bumped by the release script.\nAPP_BUILD = 41\n")
write("Configuration/Project.xcconfig", "MARKETING_VERSION = 2.3.0\nSWIFT_VERSION = 5.0\n")

# 4. Generated Info.plists, values per configuration on the target (Debug and Release).
project("Generated", "Clock",
        [{"name": "Clock", "type": APP,
          "configs": {"Debug": {"GENERATE_INFOPLIST_FILE": "YES", "CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0",
                                "INFOPLIST_KEY_CFBundleDisplayName": "Clock"},
                      "Release": {"GENERATE_INFOPLIST_FILE": "YES", "CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0",
                                  "INFOPLIST_KEY_CFBundleDisplayName": "Clock"}}}],
        both(SDKROOT="iphoneos"))

# 5. An app, three embedded targets (share extension, widget, watch app) and tests; the
#    widget's number has drifted.
project("Family", "Travel",
        [{"name": "Travel", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="12", MARKETING_VERSION="4.2"),
          "embeds": [("Embed Foundation Extensions", 13, "", ["Share", "Widget"]),
                     ("Embed Watch Content", 16, "$(CONTENTS_FOLDER_PATH)/Watch", ["Watch"])]},
         {"name": "Share", "type": EXTENSION, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="12", MARKETING_VERSION="4.2")},
         {"name": "Widget", "type": EXTENSION, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="11", MARKETING_VERSION="4.2")},
         {"name": "Watch", "type": "com.apple.product-type.application.watchapp2-container",
          "configs": both(INFOPLIST_FILE="Watch/Info.plist")},
         {"name": "TravelTests", "type": TESTS, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="1", MARKETING_VERSION="1.0")}],
        both(SDKROOT="iphoneos"), groups=[("Watch", ["Info.plist"])])
write("Family/Watch/Info.plist", PLIST.format(version="4.2", build="12"))

# 6. A workspace with two projects in folders of their own.
for app, build in (("Maps", "30"), ("Radio", "8")):
    project(f"Workspace/{app}", app,
            [{"name": app, "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES")}],
            both(CURRENT_PROJECT_VERSION=build, MARKETING_VERSION="1.0"))
write("Workspace/Apps.xcworkspace/contents.xcworkspacedata",
      '<?xml version="1.0" encoding="UTF-8"?>\n<Workspace\n   version = "1.0">\n'
      '   <FileRef\n      location = "group:Maps/Maps.xcodeproj">\n   </FileRef>\n'
      '   <Group\n      location = "group:Radio"\n      name = "Radio">\n'
      '      <FileRef\n         location = "group:Radio.xcodeproj">\n      </FileRef>\n   </Group>\n</Workspace>\n')

# 7. Values that must be refused: a CI variable defined nowhere, shell text, 2^32.
project("Broken", "Broken",
        [{"name": "FromCI", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="$(BUILD_NUMBER_FROM_CI)", MARKETING_VERSION="1.0")},
         {"name": "Injected", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="12; rm -rf /", MARKETING_VERSION="1.0")},
         {"name": "Huge", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="1000000000000000000", MARKETING_VERSION="1.0")},
         {"name": "Fine", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="5", MARKETING_VERSION="1.0")}],
        both(SDKROOT="iphoneos"))


# 8. A macOS app with what it embeds and what keeps its own number: two frameworks, an XPC
#    service, a privileged helper tool (its Info.plist linked into the binary), a login item;
#    an extension that moves with the app; and products without a version (a static library,
#    a command-line tool without an Info.plist, an aggregate target).
MAC = both(SDKROOT="macosx", GENERATE_INFOPLIST_FILE="YES")
def mac(**settings):
    merged = dict(MAC["Release"]); merged.update(settings)
    return {"Debug": dict(merged), "Release": dict(merged)}
project("Mac", "Studio",
        [{"name": "Studio", "type": APP, "configs": mac(CURRENT_PROJECT_VERSION="834", MARKETING_VERSION="3.1"),
          "embeds": [("Embed Frameworks", 10, "", ["Engine", "Bridge"]),
                     ("Embed XPC Services", 16, "$(CONTENTS_FOLDER_PATH)/XPCServices", ["Renderer"]),
                     ("Copy Helper", 1, "Contents/Library/LaunchServices", ["com.example.studio.helper"]),
                     ("Copy Login Item", 1, "Contents/Library/LoginItems", ["StudioLauncher"]),
                     ("Embed Foundation Extensions", 13, "", ["StudioShare"])]},
         {"name": "Engine", "type": "com.apple.product-type.framework", "configs": mac(CURRENT_PROJECT_VERSION="1", MARKETING_VERSION="1.0")},
         {"name": "Bridge", "type": "com.apple.product-type.framework", "configs": mac(CURRENT_PROJECT_VERSION="1", MARKETING_VERSION="1.0")},
         {"name": "Renderer", "type": "com.apple.product-type.xpc-service", "configs": mac(CURRENT_PROJECT_VERSION="5", MARKETING_VERSION="1.0")},
         {"name": "com.example.studio.helper", "type": "com.apple.product-type.tool",
          "configs": both(SDKROOT="macosx", INFOPLIST_FILE="Helper/Info.plist", CREATE_INFOPLIST_SECTION_IN_BINARY="YES")},
         {"name": "StudioLauncher", "type": APP, "configs": mac(CURRENT_PROJECT_VERSION="2", MARKETING_VERSION="1.0")},
         {"name": "StudioShare", "type": EXTENSION, "configs": mac(CURRENT_PROJECT_VERSION="834", MARKETING_VERSION="3.1")},
         {"name": "Core", "type": "com.apple.product-type.library.static", "configs": both(SDKROOT="macosx")},
         {"name": "gen", "type": "com.apple.product-type.tool", "configs": both(SDKROOT="macosx")},
         {"name": "Lint", "type": None, "configs": both()}],
        both(SDKROOT="macosx", CURRENT_PROJECT_VERSION="834", MARKETING_VERSION="3.1"),
        groups=[("Helper", ["Info.plist"])])
write("Mac/Helper/Info.plist", PLIST.format(version="1.2.0", build="7"))

# 9. A watch app with a widget of its own, two levels below the iPhone app; the widget's
#    number has drifted.
project("Watch", "Hike",
        [{"name": "Hike", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="50", MARKETING_VERSION="2.0"),
          "embeds": [("Embed Watch Content", 16, "$(CONTENTS_FOLDER_PATH)/Watch", ["HikeWatch"])]},
         {"name": "HikeWatch", "type": "com.apple.product-type.application.watchapp2",
          "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="50", MARKETING_VERSION="2.0"),
          "embeds": [("Embed Foundation Extensions", 13, "", ["HikeWatchWidget"])]},
         {"name": "HikeWatchWidget", "type": EXTENSION,
          "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="49", MARKETING_VERSION="2.0")}],
        both(SDKROOT="iphoneos"))

# 9b. The same with a watch app of the single-target kind (an application built for watchOS,
#     as Xcode 14 and later create them): its widget still carries the iPhone app's number.
project("WatchModern", "Trail",
        [{"name": "Trail", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="50", MARKETING_VERSION="2.0"),
          "embeds": [("Embed Watch Content", 16, "$(CONTENTS_FOLDER_PATH)/Watch", ["TrailWatch"])]},
         {"name": "TrailWatch", "type": APP,
          "configs": both(GENERATE_INFOPLIST_FILE="YES", SDKROOT="watchos", CURRENT_PROJECT_VERSION="50", MARKETING_VERSION="2.0"),
          "embeds": [("Embed Foundation Extensions", 13, "", ["TrailWatchWidget"])]},
         {"name": "TrailWatchWidget", "type": EXTENSION,
          "configs": both(GENERATE_INFOPLIST_FILE="YES", SDKROOT="watchos", CURRENT_PROJECT_VERSION="49", MARKETING_VERSION="2.0")}],
        both(SDKROOT="iphoneos"))

# 10. A test target with an Info.plist of its own, as Xcode names a duplicated one.
project("TestCopy", "Ledger",
        [{"name": "Ledger", "type": APP, "configs": both(INFOPLIST_FILE="Ledger/Info.plist")},
         {"name": "IntegrationTests", "type": TESTS, "configs": both(INFOPLIST_FILE="IntegrationTests copy-Info.plist")}],
        both(SDKROOT="iphoneos"), groups=[("Ledger", ["Info.plist"])])
write("TestCopy/Ledger/Info.plist", PLIST.format(version="5.4", build="300"))
write("TestCopy/IntegrationTests copy-Info.plist", PLIST.format(version="1.0", build="1"))

# 11. Date versions with zero-padded parts, and a four-part build number (as shipping apps
#     write them).
project("Dated", "Almanac",
        [{"name": "Almanac", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES")}],
        both(SDKROOT="iphoneos", MARKETING_VERSION="26.07.5", CURRENT_PROJECT_VERSION="7.75.0.3"))

# 12. A CocoaPods workspace in a fresh clone: Pods/Pods.xcodeproj is not there before
#     `pod install`.
project("CocoaPods/App", "App",
        [{"name": "App", "type": APP, "configs": both(GENERATE_INFOPLIST_FILE="YES", CURRENT_PROJECT_VERSION="17", MARKETING_VERSION="1.3")}],
        both(SDKROOT="iphoneos"))
write("CocoaPods/App.xcworkspace/contents.xcworkspacedata",
      '<?xml version="1.0" encoding="UTF-8"?>\n<Workspace\n   version = "1.0">\n'
      '   <FileRef\n      location = "group:App/App.xcodeproj">\n   </FileRef>\n'
      '   <FileRef\n      location = "group:Pods/Pods.xcodeproj">\n   </FileRef>\n</Workspace>\n')

# 13. Xcode 16: every buildSettings empty, the .xcconfig files in a synchronized folder,
#     attached by baseConfigurationReferenceAnchor + baseConfigurationReferenceRelativePath;
#     a Mac and an iPhone app, each with an extension.
EMPTY = {"Debug": {}, "Release": {}}
project("Synchronized", "Notebook",
        [{"name": "Notebook", "type": APP, "configs": EMPTY, "anchor": ("Config", "Notebook-iOS.xcconfig"),
          "embeds": [("Embed Foundation Extensions", 13, "", ["NotebookWidget"])]},
         {"name": "NotebookWidget", "type": EXTENSION, "configs": EMPTY, "anchor": ("Config", "Widget.xcconfig")},
         {"name": "NotebookMac", "type": APP, "configs": EMPTY, "anchor": ("Config", "Notebook-macOS.xcconfig"),
          "embeds": [("Embed Foundation Extensions", 13, "", ["NotebookShare"])]},
         {"name": "NotebookShare", "type": EXTENSION, "configs": EMPTY, "anchor": ("Config", "Share.xcconfig")}],
        EMPTY, synchronized=["Config", "Notebook"], project_base=("Config", "Project.xcconfig"), object_version=77)
write("Synchronized/Config/Project.xcconfig", "SWIFT_VERSION = 6.0\n#include \"Versions.xcconfig\"\n")
write("Synchronized/Config/Versions.xcconfig", "MARKETING_VERSION = 4.0.2\nCURRENT_PROJECT_VERSION = 120\n")
for config, sdk in (("Notebook-iOS", "iphoneos"), ("Widget", "iphoneos"), ("Notebook-macOS", "macosx"), ("Share", "macosx")):
    write(f"Synchronized/Config/{config}.xcconfig",
          f"#include \"Versions.xcconfig\"\nSDKROOT = {sdk}\nGENERATE_INFOPLIST_FILE = YES\n")
write("Synchronized/Notebook/NotebookApp.swift", "import SwiftUI\n")

# 14. Five targets whose .xcconfig files each include one build number through "../": the
#     file is one file, edited once, named once in a diff.
INCLUDED = ["Planner", "PlannerWidget", "PlannerShare", "PlannerIntents", "PlannerClip"]
project("Includes", "Planner",
        [{"name": name, "type": APP if name == "Planner" else EXTENSION, "configs": both(GENERATE_INFOPLIST_FILE="YES"),
          "base": f"Configuration/{name}/{name}.xcconfig",
          **({"embeds": [("Embed Foundation Extensions", 13, "", INCLUDED[1:])]} if name == "Planner" else {})}
         for name in INCLUDED],
        both(SDKROOT="iphoneos"), groups=[(f"Configuration/{name}", [f"{name}.xcconfig"]) for name in INCLUDED])
write("Includes/Configuration/BuildNumber.xcconfig", "CURRENT_PROJECT_VERSION = 230\nMARKETING_VERSION = 1.8\n")
for name in INCLUDED:
    write(f"Includes/Configuration/{name}/{name}.xcconfig",
          f"#include \"../BuildNumber.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = com.example.{name.lower()}\n")

# 15. An XcodeGen repository: the spec (with an include, settings at the project level,
#     info.properties naming the settings, a widget with its own Info.plist, a framework with
#     an xcconfig, tests) and the project generated from it, committed too.
write("XcodeGen/project.yml", """name: Podcasts
include:
  - path: Config/shared.yml
options:
  bundleIdPrefix: com.example
  deploymentTarget:
    iOS: "17.0"
configs:
  Debug: debug
  Release: release
settings:
  base:
    MARKETING_VERSION: "2.4"   # the App Store version
    CURRENT_PROJECT_VERSION: 318
targets:
  Podcasts:
    type: application
    platform: iOS
    sources: [Podcasts]
    info:
      path: Podcasts/Info.plist
      properties:
        CFBundleShortVersionString: $(MARKETING_VERSION)
        CFBundleVersion: "$(CURRENT_PROJECT_VERSION)"
        UILaunchScreen: {}
    dependencies:
      - target: PodcastsWidget
      - target: PodcastKit
      - package: Nuke
  PodcastsWidget:
    type: app-extension
    platform: iOS
    sources:
      - PodcastsWidget
    settings:
      base:
        INFOPLIST_FILE: PodcastsWidget/Info.plist
        PRODUCT_BUNDLE_IDENTIFIER: com.example.Podcasts.Widget
  PodcastKit:
    type: framework
    platform: iOS
    configFiles:
      Debug: Config/PodcastKit.xcconfig
      Release: Config/PodcastKit.xcconfig
  PodcastsTests:
    type: bundle.unit-test
    platform: iOS
    settings:
      GENERATE_INFOPLIST_FILE: YES
      CURRENT_PROJECT_VERSION: 1
""")
write("XcodeGen/Config/shared.yml", """settings:
  base:
    SWIFT_VERSION: "5.9"
    CURRENT_PROJECT_VERSION: 1
""")
write("XcodeGen/Config/PodcastKit.xcconfig", "PRODUCT_NAME = PodcastKit\nCURRENT_PROJECT_VERSION = 7\nMARKETING_VERSION = 1.3.0\n")
write("XcodeGen/Podcasts/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))
write("XcodeGen/PodcastsWidget/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))
project("XcodeGen", "Podcasts",
        [{"name": "Podcasts", "type": APP, "configs": both(INFOPLIST_FILE="Podcasts/Info.plist")}],
        both(SDKROOT="iphoneos", MARKETING_VERSION="2.4", CURRENT_PROJECT_VERSION="318"),
        groups=[("Podcasts", ["Info.plist"])])

# 16. A Tuist repository: Project.swift (settings at the project level, infoPlist extending the
#     default with the settings, a widget with an Info.plist file, a framework with literal
#     versions, tests) and no generated project.
write("Tuist/Project.swift", """import ProjectDescription

let project = Project(
    name: "Weather",
    organizationName: "Example",
    settings: .settings(
        base: [
            "MARKETING_VERSION": "3.2.0",
            "CURRENT_PROJECT_VERSION": "57",  // raised by CI
        ],
        configurations: [
            .debug(name: .debug),
            .release(name: .release),
        ]
    ),
    targets: [
        .target(
            name: "Weather",
            destinations: .iOS,
            product: .app,
            bundleId: "com.example.weather",
            infoPlist: .extendingDefault(with: [
                "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                "UILaunchScreen": [:],
            ]),
            sources: ["Weather/Sources/**"],
            resources: ["Weather/Resources/**"],
            dependencies: [
                .target(name: "WeatherWidget"),
                .target(name: "WeatherKit"),
                .external(name: "Alamofire"),
            ]
        ),
        .target(
            name: "WeatherWidget",
            destinations: .iOS,
            product: .appExtension,
            bundleId: "com.example.weather.widget",
            infoPlist: "WeatherWidget/Info.plist",
            sources: ["WeatherWidget/**"]
        ),
        .target(
            name: "WeatherKit",
            destinations: .iOS,
            product: .framework,
            bundleId: "com.example.weatherkit",
            infoPlist: .extendingDefault(with: [
                "CFBundleShortVersionString": .string("1.1.0"),
                "CFBundleVersion": "4",
            ]),
            sources: ["WeatherKit/**"],
            settings: .settings(base: ["SWIFT_STRICT_CONCURRENCY": "complete"])
        ),
        .target(
            name: "WeatherTests",
            destinations: .iOS,
            product: .unitTests,
            bundleId: "com.example.weather.tests",
            infoPlist: .default,
            sources: ["WeatherTests/**"],
            dependencies: [.target(name: "Weather")]
        ),
    ]
)
""")
write("Tuist/WeatherWidget/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))

# 16. Sparkle's layout: the marketing version joined from settings of one .xcconfig
#     ($(MAJOR).$(MINOR).$(PATCH)$(SUFFIX), a SemVer pre-release suffix), the build number
#     beside them, an app and the framework it embeds.
project("Composed", "Updater",
        [{"name": "Updater", "type": "com.apple.product-type.framework", "configs": both(INFOPLIST_FILE="Updater/Info.plist")},
         {"name": "Updater Test App", "type": APP, "configs": both(INFOPLIST_FILE="TestApp/Info.plist")}],
        both(SDKROOT="macosx"), groups=[("Updater", ["Info.plist"]), ("Configurations", ["Common.xcconfig"])],
        project_base="Configurations/Common.xcconfig")
write("Composed/Updater/Info.plist", PLIST.format(version="$(MARKETING_VERSION)", build="$(CURRENT_PROJECT_VERSION)"))
write("Composed/TestApp/Info.plist", PLIST.format(version="1.5.1", build="1.5.1"))
write("Composed/Configurations/Common.xcconfig",
      "// Version information\nUPDATER_VERSION_MAJOR = 2\nUPDATER_VERSION_MINOR = 7\nUPDATER_VERSION_PATCH = 0\n\n"
      "// This should be in SemVer format or empty, ie. \"-beta.1\"\nUPDATER_VERSION_SUFFIX = -beta.1\n"
      "CURRENT_PROJECT_VERSION = 2040\n\n"
      "MARKETING_VERSION = $(UPDATER_VERSION_MAJOR).$(UPDATER_VERSION_MINOR).$(UPDATER_VERSION_PATCH)$(UPDATER_VERSION_SUFFIX)\n")
