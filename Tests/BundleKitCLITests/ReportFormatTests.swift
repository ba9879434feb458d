import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitTestSupport
import Foundation
import Testing
import _BundleKitCommandLineTool

/// The CI formats (`--format github|sarif|junit|checkstyle|markdown`), each read back by a
/// reader that is not ours: GitHub's documented workflow-command syntax, sarif-tools,
/// junitparser, Python's XML parser, a Markdown table split by its own rules; every one must
/// give the findings `--format json` gives, in the same order, at the same places.
struct ReportFormatTests {
  /// A project where every lint rule fires, in folders whose names hold `,`, `:`, `%`,
  /// a newline and non-ASCII text.
  static let project: [String: String] = [
    "Appé, 50%: x/en.lproj/Localizable.strings": """
    "dup" = "A";
    "dup" = "B";
    "same" = "S";
    "same" = "S";
    "empty" = "";
    "unsafe" = "%s here";
    "conflict" = "%1$@ and %1$d";
    "unused" = "%2$@ only";
    "mismatch" = "%@ items";
    "missing" = "%@ and %d";
    "array" = ("a", "b");
    "untranslated" = "Hello";

    """,
    "Appé, 50%: x/fr.lproj/Localizable.strings": """
    "mismatch" = "%d éléments";
    "missing" = "%@ seulement";
    "extra" = "En plus";
    "dup" = "A";
    "same" = "S";
    "empty" = "x";
    "unsafe" = "%s ici";
    "conflict" = "%1$@ et %1$d";
    "unused" = "%2$@ seul";
    "array" = "a";

    """,
    "Appé, 50%: x/en.lproj/Localizable.stringsdict": """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>%d files</key><dict>
    <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
    <key>files</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict>
    <key>spare</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>other</key><string>%d</string></dict>
    </dict>
    <key>broken</key><dict><key>files</key><string>x</string></dict>
    </dict></plist>

    """,
    "Appé, 50%: x/fr.lproj/Localizable.stringsdict": """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>%d files</key><dict>
    <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
    <key>files</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>few</key><string>%d fichiers</string><key>other</key><string>%d fichiers</string></dict>
    </dict>
    </dict></plist>

    """,
    "Line\nBreak/en.lproj/Menu.strings": "\"empty\" = \"\";\n",
    "Bad/en.lproj/Broken.strings": "\"a\" = \"b\"\n\"c\" = ;\n",
  ]

  /// Reads one report with a reader that is not ours and prints its findings as JSON:
  /// `[severity, path, line, column, rule, message]` each (`null` where the format has none).
  static let readers = #"""
    import json, re, sys, xml.etree.ElementTree as ET
    fmt, path = sys.argv[1], sys.argv[2]
    text = open(path, encoding='utf-8').read()
    out = []
    if fmt == 'github':
        # https://docs.github.com/actions/reference/workflow-commands-for-github-actions
        # and @actions/core's escaping: data %25 %0D %0A; properties also %3A %2C.
        def unescape(s):
            return (s.replace('%0D', '\r').replace('%0A', '\n').replace('%3A', ':')
                     .replace('%2C', ',').replace('%25', '%'))
        for line in text.split('\n'):
            if not line:
                continue
            m = re.fullmatch(r'::(error|warning|notice)(?: ([^:]*))?::(.*)', line)
            assert m, 'not a workflow command: %r' % line
            props = {}
            for part in (m.group(2) or '').split(','):
                if part:
                    key, value = part.split('=', 1)
                    props[key] = unescape(value)
            level = {'notice': 'note'}.get(m.group(1), m.group(1))
            title = props.get('title')
            out.append([level, props.get('file'), int(props['line']) if 'line' in props else None,
                        int(props['col']) if 'col' in props else None,
                        title.split(' ', 1)[1] if title else None, unescape(m.group(3))])
    elif fmt == 'sarif':
        from sarif import loader
        from urllib.parse import unquote
        log = json.loads(text)
        assert log['version'] == '2.1.0' and len(log['runs']) == 1
        run = log['runs'][0]
        rules = [r['id'] for r in run['tool']['driver']['rules']]
        records = loader.load_sarif_file(path).get_records()
        assert len(records) == len(run['results'])
        for result, record in zip(run['results'], records):
            assert rules[result['ruleIndex']] == result['ruleId'] == record['Code']
            loc = result.get('locations', [{}])[0].get('physicalLocation', {})
            region = loc.get('region', {})
            file = loc.get('artifactLocation', {}).get('uri')
            out.append([result['level'], unquote(file) if file else None, region.get('startLine'),
                        region.get('startColumn'),
                        None if result['ruleId'] == 'finding' else result['ruleId'],
                        result['message']['text']])
    elif fmt == 'junit':
        from junitparser import JUnitXml, Failure
        for suite in JUnitXml.fromfile(path):
            for case in suite:
                for result in case.result:
                    if isinstance(result, Failure):
                        # The failure's text is the compiler-style line: path:line:col: ...
                        m = re.match(r'(.*?):(\d+)(?::(\d+))?: error: ', result.text, re.S)
                        out.append(['error', case.name, int(m.group(2)) if m else None,
                                    int(m.group(3)) if m and m.group(3) else None, result.type,
                                    result.message])
    elif fmt == 'checkstyle':
        for file in ET.fromstring(text.encode()).iter('file'):
            for error in file.iter('error'):
                level = {'info': 'note'}.get(error.get('severity'), error.get('severity'))
                source = error.get('source').split('.', 1)[1]
                out.append([level, file.get('name') or None,
                            int(error.get('line')) if error.get('line') else None,
                            int(error.get('column')) if error.get('column') else None,
                            None if source == 'finding' else source, error.get('message')])
    elif fmt == 'markdown':
        rows = [l for l in text.split('\n') if l.startswith('| ') and not l.startswith('| | File')]
        for row in rows:
            cells = [c.strip() for c in re.split(r'(?<!\\)\|', row)[1:-1]]
            level = cells[0].split(' ')[-1]
            def text(cell):
                cell = re.sub(r'\\(.)', r'\1', cell.replace('<br>', '\n'))
                return cell.replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')
            line, col = (cells[2].split(':') + [None])[:2] if cells[2] else (None, None)
            out.append([level, text(cells[1]) or None, int(line) if line else None,
                        int(col) if col else None, cells[3] or None, text(cells[4])])
    print(json.dumps(out))
    """#

  static func python(_ arguments: [String]) throws -> String {
    let python = try #require(Tool.path("python3"))
    let run = try Tool.run(python, ["-c", readers] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    return String(decoding: run.stdout, as: UTF8.self)
  }

  /// `bundlekit ARGUMENTS` in `workspace` as GitHub Actions runs it.
  static func bundlekit(_ arguments: [String], workspace: String, summary: String? = nil) throws
    -> (status: Int32, stdout: [UInt8], stderr: String)
  {
    let tool = try #require(BundleKitTool.path)
    var environment = ["GITHUB_WORKSPACE": workspace]
    if let summary { environment["GITHUB_STEP_SUMMARY"] = summary }
    let run = try Tool.run(tool, arguments, environment: environment, in: workspace)
    return (run.status, Array(run.stdout), run.stderr)
  }

  /// `--format json`'s findings, as the readers print them (paths relative to `root`).
  static func reference(_ paths: [String], root: String) throws -> [[String?]] {
    let run = try bundlekit(["strings", "lint"] + paths + ["--format", "json"], workspace: root)
    let findings = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]]
    return try #require(findings).map { finding in
      let path = finding["path"] as? String ?? ""
      let relative = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
      let rule = finding["rule"] as? String ?? ""
      return [
        finding["severity"] as? String, relative.isEmpty ? nil : relative,
        (finding["line"] as? Int).map(String.init), (finding["column"] as? Int).map(String.init),
        rule.isEmpty ? nil : rule, finding["message"] as? String,
      ]
    }
  }

  /// A reader's findings in the reference's shape.
  static func read(_ format: String, _ bytes: [UInt8], in folder: TemporaryFolder) throws
    -> [[String?]]
  {
    let file = folder.file("report.\(format)")
    try FileIO.writeAtomically(bytes, to: file)
    let printed = try python([format, file])
    let rows = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [[Any]]
    return try #require(rows, "\(printed)").map { row in
      row.map { value -> String? in
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        return nil
      }
    }
  }

  @Test(
    "every format carries the same findings in the same order at the same places as JSON, on a table with every lint rule firing and on the demo app; the exit status is the format's own"
  )
  func sameFindingsInEveryFormat() throws {
    let folder = try TemporaryFolder()
    for (path, text) in Self.project {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    let demo = Corpus.packageRoot.appendingPathComponent("Examples/DemoApp").path
    for (paths, root) in [([folder.path], folder.path), ([demo], demo)] {
      let reference = try Self.reference(paths, root: root)
      let status = try Self.bundlekit(["strings", "lint"] + paths, workspace: root).status
      if paths == [folder.path] {
        // Fifteen rules fire, paths with ',', ':', '%', a newline and é among them.
        #expect(Set(reference.compactMap { $0[4] }).count == 15, "\(reference)")
        #expect(reference.contains { $0[1]?.contains("\n") == true })
        #expect(status == 1)
      }
      for format in ["github", "sarif", "checkstyle", "markdown", "junit"] {
        let run = try Self.bundlekit(
          ["strings", "lint"] + paths + ["--format", format], workspace: root)
        #expect(run.status == status, "\(format): \(run.stderr)")
        let read = try Self.read(format, run.stdout, in: folder)
        var expected = reference
        if format == "junit" || format == "checkstyle" {
          // Grouped by file, files in the order of their first finding.
          var order: [String] = []
          for finding in reference where !order.contains(finding[1] ?? "") {
            order.append(finding[1] ?? "")
          }
          expected = order.flatMap { file in reference.filter { ($0[1] ?? "") == file } }
        }
        // JUnit fails a case per error; warnings pass (they are in its output).
        if format == "junit" { expected = expected.filter { $0[0] == "error" } }
        #expect(read == expected, "\(format)")
      }
    }
  }

  @Test(
    "GitHub's escaping: %, CR, LF in a message; also : and , in a property; every XML format reads back a control character as U+FFFD"
  )
  func escaping() throws {
    let folder = try TemporaryFolder()
    let diagnostic = Diagnostic(
      .warning, path: "/w/a,b:c%d\r\né.strings", line: 3, column: 4,
      "100% sure:\r\nno, really\u{1}", rule: Diagnostic.Rule(name: "x,y:z"))
    let report = FindingsReport(
      tool: "bundlekit", version: "1", command: "strings lint", diagnostics: [diagnostic],
      root: "/w")
    let github = String(decoding: report.encoded(as: .github), as: UTF8.self)
    #expect(
      github
        == "::warning file=a%2Cb%3Ac%25d%0D%0Aé.strings,line=3,col=4,title=bundlekit x%2Cy%3Az::100%25 sure:%0D%0Ano, really\u{1}\n"
    )
    let read = try Self.read("github", report.encoded(as: .github), in: folder)
    #expect(
      read == [
        ["warning", "a,b:c%d\r\né.strings", "3", "4", "x,y:z", "100% sure:\r\nno, really\u{1}"]
      ])
    for format in ["checkstyle", "junit"] {
      let bytes = report.encoded(as: ReportFormat(rawValue: format) ?? .checkstyle)
      let parsed = try Self.pythonScript(
        "import sys, xml.dom.minidom as m; m.parse(sys.argv[1]); print('ok')",
        [
          try { () throws -> String in
            let file = folder.file("escaped.\(format)")
            try FileIO.writeAtomically(bytes, to: file)
            return file
          }()
        ])
      #expect(parsed == "ok\n", "\(format)")
    }
  }

  @Test("a finding about no file, a failure that stops the run, and the configuration's format")
  func stoppedRunsAndConfiguration() throws {
    let folder = try TemporaryFolder()
    try FileIO.createFolders(for: folder.file("en.lproj/x"))
    try FileIO.writeAtomically(
      Array("\"a\" = \"%@\";\n".utf8), to: folder.file("en.lproj/Localizable.strings"))
    try FileIO.createFolders(for: folder.file("fr.lproj/x"))
    try FileIO.writeAtomically(
      Array("\"a\" = \"%d\";\n".utf8), to: folder.file("fr.lproj/Localizable.strings"))
    try FileIO.writeAtomically(Array(#"{"format": "github"}"#.utf8), to: folder.file("ci.json"))
    // The configuration's format, when the command line names none; the command line wins.
    var run = try Self.bundlekit(
      ["--config", folder.file("ci.json"), "strings", "lint", folder.path],
      workspace: folder.path)
    #expect(run.status == 1)
    #expect(
      String(decoding: run.stdout, as: UTF8.self).hasPrefix(
        "::error file=fr.lproj/Localizable.strings,line=1,col=1,title=bundlekit placeholder-mismatch::"
      ))
    run = try Self.bundlekit(
      [
        "--config", folder.file("ci.json"), "strings", "lint", folder.path, "--format",
        "checkstyle",
      ],
      workspace: folder.path)
    #expect(String(decoding: run.stdout, as: UTF8.self).hasPrefix("<?xml"))
    // A run stopped by an error (no such folder) still writes its report, and fails.
    run = try Self.bundlekit(
      ["strings", "lint", folder.file("absent"), "--format", "sarif"], workspace: folder.path)
    #expect(run.status == 1)
    let sarif = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any]
    let results = ((sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    #expect(results?.count == 1)
    // A wrong format in the configuration is an error at its key.
    try FileIO.writeAtomically(Array(#"{"format": "xml"}"#.utf8), to: folder.file("bad.json"))
    run = try Self.bundlekit(
      ["--config", folder.file("bad.json"), "strings", "lint", folder.path],
      workspace: folder.path)
    #expect(run.status == 1)
    #expect(run.stderr.contains("bad.json:1:2: error: 'format' must be one of"), "\(run.stderr)")
    // --format github adds its counts to the step summary.
    let summary = folder.file("summary.md")
    try FileIO.writeAtomically(Array("# Earlier step\n".utf8), to: summary)
    run = try Self.bundlekit(
      ["strings", "lint", folder.path, "--format", "github"], workspace: folder.path,
      summary: summary)
    let written = String(decoding: try FileIO.read(summary), as: UTF8.self)
    #expect(written == "# Earlier step\n**bundlekit strings lint**: 1 error, 0 warnings\n")
  }

  @Test(
    "coverage for people: a Markdown table per language with bars, an SVG badge Chromium renders, and the table in the step summary"
  )
  func coverage() throws {
    let folder = try TemporaryFolder()
    let files = [
      "en.lproj/Localizable.strings":
        "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n\"d\" = \"D\";\n",
      "de.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
      "fr.lproj/Localizable.strings": "\"a\" = \"A\";\n",
    ]
    for (path, text) in files {
      try FileIO.createFolders(for: folder.file(path))
      try FileIO.writeAtomically(Array(text.utf8), to: folder.file(path))
    }
    var run = try Self.bundlekit(
      ["strings", "coverage", folder.path, "--format", "markdown"], workspace: folder.path)
    let markdown = String(decoding: run.stdout, as: UTF8.self)
    #expect(markdown.contains("#### de: 75.0%\n"), "\(markdown)")
    #expect(markdown.contains("| Localizable | 3/4 | 75.0% | `███████░░░` |"), "\(markdown)")
    #expect(markdown.contains("| Localizable | 1/4 | 25.0% | `██░░░░░░░░` |"), "\(markdown)")
    run = try Self.bundlekit(
      ["strings", "coverage", folder.path, "--format", "svg"], workspace: folder.path)
    let svg = folder.file("badge.svg")
    try FileIO.writeAtomically(run.stdout, to: svg)
    // Python's XML parser reads it: the label and the overall share (4 of 8 keys).
    let parsed = try Self.pythonScript(
      "import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); print(r.get('aria-label'))",
      [svg])
    #expect(parsed == "translated: 50.0%\n")
    // Headless Chromium renders it to a PNG with the badge's yellow in it.
    let chromium = try #require(
      Tool.path("chromium") ?? Tool.path("chromium-browser"), "chromium is not installed")
    let png = folder.file("badge.png")
    let rendered = try Tool.run(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--user-data-dir=" + folder.file("profile"), "--screenshot=" + png,
        "--window-size=200,40", "file://" + svg,
      ])
    #expect(FileIO.exists(png), "\(rendered.stderr)")
    let bytes = try FileIO.read(png)
    #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let colours = try Self.pythonScript(
      """
      import sys
      try:
          from PIL import Image
      except ImportError:
          print('no PIL'); sys.exit(0)
      image = Image.open(sys.argv[1]).convert('RGB')
      print(any(abs(r - 0xdf) < 12 and abs(g - 0xb3) < 12 and abs(b - 0x17) < 12
                for r, g, b in image.getdata()))
      """, [png])
    #expect(colours == "True\n" || colours == "no PIL\n", "\(colours)")
    // github: the table goes to the step summary.
    let summary = folder.file("summary.md")
    try FileIO.writeAtomically([], to: summary)
    run = try Self.bundlekit(
      ["strings", "coverage", folder.path, "--format", "github", "--min", "0.5"],
      workspace: folder.path, summary: summary)
    #expect(run.status == 1)
    #expect(
      String(decoding: run.stdout, as: UTF8.self).contains(
        "::error::fr Localizable is 25.0%25 translated"))
    #expect(String(decoding: try FileIO.read(summary), as: UTF8.self).contains("#### fr: 25.0%"))
  }

  static func pythonScript(_ script: String, _ arguments: [String]) throws -> String {
    let python = try #require(Tool.path("python3"))
    let run = try Tool.run(python, ["-c", script] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    return String(decoding: run.stdout, as: UTF8.self)
  }
}
