/// The frame of every page: a head with the inline style sheet, a header linking the site's pages, the
/// content, and a small inline script that only adds filtering (every page reads fully without it).
/// Nothing is loaded from anywhere: the site works opened from disk, as a CI artifact.
struct ReportPage {
    var title: String
    /// How many folders below the site's folder the page is (0 for index.html), for relative links.
    var depth: Int
    var body: String

    /// A link from this page to a page given by its path from the site's folder.
    static func href(_ path: String, depth: Int) -> String {
        String(repeating: "../", count: depth) + path.split(separator: "/").map { String($0).percentEncoded() }.joined(separator: "/")
    }

    var html: String {
        let home = Self.href("index.html", depth: depth)
        return """
            <!DOCTYPE html>
            <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(HTML.escape(title))</title>
            <style>
            \(Self.style)</style>
            </head>
            <body>
            <header class="top"><a href="\(home)">SurveyReplay report</a></header>
            <main>
            \(body)
            </main>
            <footer>Written by survey-replay: every page is self-contained and reads without scripts.</footer>
            <script>
            \(Self.script)</script>
            </body>
            </html>

            """
    }

    static let style = """
        :root { --ok: #1b6e35; --ok-bg: #e2f3e7; --bad: #a8201a; --bad-bg: #fde4e2; --warn: #7a4f00; --warn-bg: #fff0cc;
          --stale: #5b3596; --stale-bg: #eee6fa; --grey: #555; --grey-bg: #ececec; --line: #d6d6d6; --ink: #1d1d1f; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fafafa; }
        header.top { background: #24292f; padding: 10px 24px; }
        header.top a { color: #fff; font-weight: 600; text-decoration: none; }
        main { max-width: 1180px; margin: 0 auto; padding: 16px 24px 40px; }
        footer { color: #777; font-size: 12px; text-align: center; padding: 16px; }
        h1 { font-size: 24px; margin: 8px 0 4px; }
        h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        h3 { font-size: 16px; margin: 18px 0 6px; }
        code, pre, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
        pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
        a { color: #0a58ca; }
        .muted { color: #666; }
        .lede { color: #444; margin: 2px 0 12px; }
        table { border-collapse: collapse; width: 100%; background: #fff; }
        th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
        th { background: #f2f2f2; font-weight: 600; }
        .counts { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0; padding: 0; list-style: none; }
        .counts li { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; }
        .counts b { font-size: 20px; display: block; }
        .badge { display: inline-block; border-radius: 10px; padding: 1px 9px; font-size: 12px; font-weight: 600; white-space: nowrap; }
        .status-passed, .cov-taken, .outcome-ok { color: var(--ok); background: var(--ok-bg); }
        .status-failed, .status-error, .cov-not-reached, .outcome-rejected { color: var(--bad); background: var(--bad-bg); }
        .status-pending, .status-no-golden, .cov-not-taken, .outcome-validation { color: var(--warn); background: var(--warn-bg); }
        .status-stale { color: var(--stale); background: var(--stale-bg); }
        .status-obsolete, .cov-impossible { color: var(--grey); background: var(--grey-bg); }
        .cov-impossible { background-image: repeating-linear-gradient(135deg, transparent 0 4px, rgba(0,0,0,.07) 4px 8px); }
        .filters { display: flex; gap: 8px; margin: 8px 0; }
        .filters input { flex: 1; padding: 5px 8px; }
        .callout { border-left: 4px solid var(--bad); background: var(--bad-bg); padding: 8px 12px; margin: 10px 0; border-radius: 4px; }
        .callout.note { border-color: var(--warn); background: var(--warn-bg); }
        .step { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 12px 0; padding: 10px 14px; }
        .step.diverges { border: 2px solid var(--bad); box-shadow: 0 0 0 3px var(--bad-bg); }
        .step-head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
        .step-head .n { font-weight: 700; }
        .changes { margin: 6px 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 6px; }
        .appears { background: var(--ok-bg); color: var(--ok); border-radius: 4px; padding: 0 6px; }
        .disappears { background: var(--bad-bg); color: var(--bad); border-radius: 4px; padding: 0 6px; text-decoration: line-through; }
        .events { margin: 6px 0; padding-left: 18px; color: #333; }
        .screen { list-style: none; margin: 8px 0 0; padding: 0; border-top: 1px dashed var(--line); }
        .question { padding: 7px 8px; border-bottom: 1px dashed var(--line); }
        .question.current { background: #eef4ff; border-left: 3px solid #0a58ca; }
        .question.new { background: var(--ok-bg); }
        .question.gone { background: var(--bad-bg); opacity: .8; }
        .question.gone .text { text-decoration: line-through; }
        .question .text { font-weight: 600; }
        .question .meta { color: #666; font-size: 12px; }
        .question.same { padding: 3px 8px; color: #444; font-size: 13px; }
        .question.same .text { font-weight: 500; }
        .options { list-style: none; margin: 4px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; }
        .options li { border: 1px solid var(--line); border-radius: 12px; padding: 0 8px; font-size: 13px; background: #fff; }
        .options li.picked { background: #0a58ca; color: #fff; border-color: #0a58ca; }
        .answer { margin-top: 3px; font-size: 13px; }
        .answer code { background: #f1f1f1; padding: 0 4px; border-radius: 3px; }
        .submit { margin-top: 8px; display: inline-block; border: 1px solid #0a58ca; color: #0a58ca; border-radius: 6px; padding: 2px 10px; font-weight: 600; }
        .sidebyside { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin-top: 8px; }
        .sidebyside pre { margin: 0; }
        .sidebyside .changed { background: var(--bad-bg); display: block; }
        .sidebyside h4 { margin: 0 0 4px; font-size: 13px; }
        .tree, .tree ul { list-style: none; margin: 0; padding-left: 18px; }
        .tree li { margin: 3px 0; }
        .op { font-weight: 700; font-size: 12px; text-transform: uppercase; color: #444; }
        .branches { display: inline-flex; gap: 4px; flex-wrap: wrap; }
        .survey-q { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; padding: 10px 14px; }
        .survey-q h3 { margin: 0 0 4px; }
        .graph { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
        .finding { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 10px 14px; }
        details > summary { cursor: pointer; color: #0a58ca; }
        """

    /// Filtering for tables marked `data-filterable`: shows their filter bar (hidden without scripts) and
    /// hides rows whose text or `data-status` does not match. Written without `<` and `&` so the page stays
    /// well-formed XML.
    static let script = """
        (function () {
          var tables = document.querySelectorAll('[data-filterable]');
          for (var i = 0; i !== tables.length; i++) { setUp(tables[i]); }
          function setUp(table) {
            var bar = document.getElementById(table.getAttribute('data-filterable'));
            if (!bar) { return; }
            bar.hidden = false;
            var input = bar.querySelector('input');
            var select = bar.querySelector('select');
            function apply() {
              var text = input.value.toLowerCase();
              var status = select.value;
              var rows = table.querySelectorAll('[data-status]');
              for (var j = 0; j !== rows.length; j++) {
                var row = rows[j];
                var statusMatches = status === '' || row.getAttribute('data-status') === status;
                row.hidden = !(statusMatches ? row.textContent.toLowerCase().indexOf(text) !== -1 : false);
              }
            }
            input.addEventListener('input', apply);
            select.addEventListener('change', apply);
          }
        })();

        """
}
