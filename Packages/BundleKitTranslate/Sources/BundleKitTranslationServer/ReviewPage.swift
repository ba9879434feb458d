/// The translators' page: plain HTML, CSS and JavaScript, no build step, served at `/`.
/// It searches the memory (`/search`), shows a key in every language (`/lookup`) with fuzzy
/// matches and their scores (`/matches`), reviews suggestions (`/review`, with the API key the
/// translator typed, kept in the browser's local storage) and links to `/export.tmx`. Text from
/// the memory is only ever set as `textContent`, never parsed as HTML.
enum ReviewPage {
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Translation memory</title>
    <style>
    :root { font: 15px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #f5f5f7; }
    body { margin: 0 auto; max-width: 70rem; padding: 0.75rem; }
    h1 { font-size: 1.3rem; margin: 0.25rem 0 0.75rem; }
    form, .panel { background: #fff; border-radius: 10px; padding: 0.75rem; margin-bottom: 0.75rem;
      box-shadow: 0 1px 2px rgb(0 0 0 / 8%); }
    .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
    label { display: flex; flex-direction: column; font-size: 0.8rem; color: #555; flex: 1 1 9rem; }
    input, select, button { font: inherit; padding: 0.45rem 0.5rem; border: 1px solid #bbb;
      border-radius: 6px; min-height: 2.4rem; box-sizing: border-box; }
    button { background: #0a66d8; color: #fff; border: none; cursor: pointer; }
    button.secondary { background: #e8e8ed; color: #1d1d1f; }
    button.reject { background: #c9342b; }
    table { width: 100%; border-collapse: collapse; }
    th, td { text-align: left; padding: 0.4rem; border-bottom: 1px solid #eee; vertical-align: top;
      overflow-wrap: anywhere; }
    tr.result { cursor: pointer; }
    tr.result:hover { background: #f0f6ff; }
    .state { font-size: 0.75rem; padding: 0.1rem 0.4rem; border-radius: 4px; background: #eee; }
    .state.needs_review { background: #ffe9b3; }
    .state.approved { background: #c9f2d0; }
    .actions { display: flex; gap: 0.4rem; flex-wrap: wrap; margin-top: 0.3rem; }
    #status { min-height: 1.2rem; font-size: 0.85rem; color: #555; }
    @media (max-width: 40rem) {
      thead { display: none; }
      tr { display: block; border-bottom: 1px solid #ddd; padding: 0.4rem 0; }
      td { display: block; border: none; padding: 0.1rem 0.2rem; }
      td[data-label]::before { content: attr(data-label) ": "; color: #777; font-size: 0.8rem; }
    }
    </style>
    </head>
    <body>
    <h1>Translation memory</h1>
    <form id="search">
      <div class="row">
        <label>Text <input id="q" name="q" type="search" placeholder="Search translations"></label>
        <label>Project <input id="project" name="project" placeholder="all"></label>
        <label>Language <input id="lang" name="lang" placeholder="all"></label>
        <label>State
          <select id="state" name="state">
            <option value="">all</option>
            <option value="translated">translated</option>
            <option value="needs_review">needs review</option>
            <option value="approved">approved</option>
          </select>
        </label>
        <button id="go" type="submit">Search</button>
      </div>
      <div class="row" style="margin-top:0.5rem">
        <label>API key (for reviews) <input id="apikey" type="password" autocomplete="off"></label>
        <a id="export" href="export.tmx">Export TMX</a>
      </div>
    </form>
    <div id="status" role="status"></div>
    <div class="panel">
      <table>
        <thead><tr><th>Text</th><th>Language</th><th>Key</th><th>Project</th><th>State</th></tr></thead>
        <tbody id="results"></tbody>
      </table>
    </div>
    <div class="panel" id="entry" hidden>
      <h2 id="entry-title" style="font-size:1.1rem;margin:0 0 0.5rem"></h2>
      <table>
        <thead><tr><th>Language</th><th>Translation</th><th>State</th></tr></thead>
        <tbody id="languages"></tbody>
      </table>
      <h3 style="font-size:1rem">Fuzzy matches</h3>
      <table>
        <thead><tr><th>Score</th><th>Matched text</th><th>Translation</th><th>Language</th></tr></thead>
        <tbody id="fuzzy"></tbody>
      </table>
    </div>
    <script>
    "use strict";
    const $ = (id) => document.getElementById(id);
    const say = (text) => { $("status").textContent = text; };
    $("apikey").value = localStorage.getItem("bundlekit-api-key") || "";
    $("apikey").addEventListener("change", () =>
      localStorage.setItem("bundlekit-api-key", $("apikey").value));

    function cell(row, text, label) {
      const td = document.createElement("td");
      td.textContent = text;
      if (label) td.dataset.label = label;
      row.appendChild(td);
      return td;
    }
    function stateCell(row, state) {
      const td = cell(row, "", "State");
      const span = document.createElement("span");
      span.className = "state " + state;
      span.textContent = state.replace("_", " ");
      td.appendChild(span);
      return td;
    }
    async function getJSON(url, options) {
      const response = await fetch(url, options);
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.error || response.statusText);
      return body;
    }

    async function search(event) {
      if (event) event.preventDefault();
      const query = new URLSearchParams();
      for (const name of ["q", "project", "lang", "state"]) {
        if ($(name).value) query.set(name, $(name).value);
      }
      $("export").href = "export.tmx" + ($("project").value ? "?project=" +
        encodeURIComponent($("project").value) : "");
      say("Searching…");
      try {
        const body = await getJSON("search?" + query);
        const results = $("results");
        results.replaceChildren();
        for (const record of body.results) {
          const row = document.createElement("tr");
          row.className = "result";
          cell(row, record.value, "Text");
          cell(row, record.language, "Language");
          cell(row, record.table + ":" + record.key + (record.variant ? " (" + record.variant + ")" : ""), "Key");
          cell(row, record.project, "Project");
          stateCell(row, record.state);
          row.addEventListener("click", () => show(record));
          results.appendChild(row);
        }
        say(body.results.length + " found");
      } catch (error) {
        say("Search failed: " + error.message);
      }
    }

    async function show(record) {
      $("entry").hidden = false;
      $("entry-title").textContent = record.table + ":" + record.key;
      const query = new URLSearchParams({ key: record.key, table: record.table });
      if (record.project) query.set("project", record.project);
      const languages = $("languages");
      languages.replaceChildren();
      try {
        const body = await getJSON("lookup?" + query);
        for (const entry of body.translations) {
          if (entry.bundle !== record.bundle || entry.variant !== record.variant) continue;
          const row = document.createElement("tr");
          row.className = "translation";
          row.dataset.language = entry.language;
          cell(row, entry.language, "Language");
          const text = cell(row, entry.value, "Translation");
          stateCell(row, entry.state);
          if (entry.state === "needs_review") text.appendChild(actions(entry));
          languages.appendChild(row);
        }
      } catch (error) {
        say("Lookup failed: " + error.message);
      }
      const fuzzy = $("fuzzy");
      fuzzy.replaceChildren();
      const source = record.source || record.value;
      const target = $("lang").value || record.language;
      try {
        const body = await getJSON("matches?" + new URLSearchParams({ q: source, target }));
        for (const match of body.matches) {
          const row = document.createElement("tr");
          cell(row, match.score.toFixed(2), "Score");
          cell(row, match.matchedText, "Matched");
          cell(row, match.translation, "Translation");
          cell(row, match.language, "Language");
          fuzzy.appendChild(row);
        }
      } catch (error) {
        say("Matches failed: " + error.message);
      }
    }

    function actions(entry) {
      const box = document.createElement("div");
      box.className = "actions";
      const button = (label, className, action) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.className = className;
        b.addEventListener("click", () => review(entry, action));
        box.appendChild(b);
      };
      button("Approve", "approve", "approve");
      button("Edit", "edit secondary", "edit");
      button("Reject", "reject", "reject");
      return box;
    }

    async function review(entry, action) {
      const change = {
        project: entry.project, bundle: entry.bundle, table: entry.table, key: entry.key,
        variant: entry.variant, language: entry.language, action,
      };
      if (action === "edit") {
        const value = prompt("New translation", entry.value);
        if (value === null) return;
        change.value = value;
      }
      try {
        await getJSON("review", {
          method: "POST",
          headers: { "Content-Type": "application/json",
            "Authorization": "Bearer " + $("apikey").value },
          body: JSON.stringify(change),
        });
        await search();
        await show(entry);
        say(action === "reject" ? "Rejected" : "Saved");
      } catch (error) {
        say("Review failed: " + error.message);
      }
    }

    $("search").addEventListener("submit", search);
    </script>
    </body>
    </html>
    """#
}
