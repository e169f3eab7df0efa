// SPDX-License-Identifier: Apache-2.0
import ThumbKit
import ThumbKitCatalog

/// Small HTML building blocks for the static site. Pages are HTML5 written in the XML-compatible
/// ("polyglot") form: every element closed, every attribute quoted, only the five XML entities,
/// so an XML parser can read them back (the tests do). Text is escaped by `HTMLText.escape`
/// (ThumbKitCatalog), the escaper the bench report uses too. `thumbkit serve`'s web app builds its
/// pages from these same blocks (package API), so the site and the app cannot drift apart.
package enum HTML {
    /// A whole page. `root` is the relative path from the page's folder to the site root (`""`
    /// or `"../"`); `trail` is the breadcrumb (label, link relative to the page; nil for the
    /// page itself). `lang` is the page's language (`en` for the static site); `head` is extra
    /// markup for the `<head>` (the web app's automatic reload while a picture is rebuilt).
    package static func page(
        title: String, root: String, trail: [(label: String, href: String?)], body: String, lang: String = "en",
        head: String = ""
    ) -> String {
        let crumbs = trail.map { item in
            item.href.map { "<a href=\"\(HTMLText.escape($0))\">\(HTMLText.escape(item.label))</a>" }
                ?? "<span>\(HTMLText.escape(item.label))</span>"
        }.joined(separator: " <span class=\"sep\">/</span> ")
        return """
            <!DOCTYPE html>
            <html lang="\(HTMLText.escape(lang))">
            <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>\(HTMLText.escape(title))</title>
            <link rel="stylesheet" href="\(root)style.css" />
            <script src="\(root)\(SiteText.scriptPath)" defer="defer"></script>
            \(head)</head>
            <body>
            <nav class="trail">\(crumbs)</nav>
            <main>
            <h1>\(HTMLText.escape(title))</h1>
            \(body)
            </main>
            <footer>Made by thumbkit from the catalog.</footer>
            </body>
            </html>

            """
    }

    /// An `<img>` with `src` (the @1x file), `srcset` (every scale), and `width`/`height` in CSS
    /// pixels; a grey placeholder box of `fallback` size when there is no image. When the picture
    /// also has WebP or AVIF files, the `<img>` (their JPEG or PNG fallback) goes inside a
    /// `<picture>` after one `<source type=…>` per modern format, so a browser picks the first
    /// format it can show and every browser shows one.
    package static func image(_ image: SiteImage?, alt: String, root: String, className: String, fallback: (Int, Int))
        -> String
    {
        guard let image else {
            return
                "<span class=\"\(className) missing\" style=\"width: \(fallback.0)px; height: \(fallback.1)px\"></span>"
        }
        let img =
            "<img class=\"\(className)\" src=\"\(root)\(HTMLText.escape(image.files[0].path))\" srcset=\"\(srcset(image.files, root: root))\""
            + " width=\"\(image.width)\" height=\"\(image.height)\" alt=\"\(HTMLText.escape(alt))\" />"
        guard !image.sources.isEmpty else { return img }
        let sources = image.sources.map {
            "<source type=\"\($0.mimeType)\" srcset=\"\(srcset($0.files, root: root))\" />"
        }
        return "<picture>" + sources.joined() + img + "</picture>"
    }

    /// `a.jpg 1x, a@2x.jpg 2x`: each file's URL under `root` with its scale.
    private static func srcset(_ files: [SiteImage.File], root: String) -> String {
        files.map { "\(root)\(HTMLText.escape($0.path)) \($0.scale)x" }.joined(separator: ", ")
    }

    /// A table of a record's outputs.
    package static func outputTable(_ rows: [OutputRecord]) -> String {
        guard !rows.isEmpty else { return "<p class=\"note\">No outputs yet: run <code>thumbkit build</code>.</p>" }
        let lines = rows.map { row in
            "<tr><td>\(HTMLText.escape(row.kind.rawValue))</td><td>@\(row.scale)x</td><td>\(row.width)×\(row.height)</td>"
                + "<td>\(row.format.rawValue)</td><td class=\"num\">\(SiteText.bytes(row.bytes))</td><td><code>\(HTMLText.escape(row.path))</code></td></tr>"
        }
        return """
            <table class="outputs">
            <thead><tr><th>Kind</th><th>Scale</th><th>Pixels</th><th>Format</th><th class="num">Size</th><th>Path</th></tr></thead>
            <tbody>
            \(lines.joined(separator: "\n"))
            </tbody>
            </table>
            """
    }

    /// The site's style sheet.
    package static let styleSheet = """
        :root { color-scheme: light; --accent: #2a7a3b; --line: #e3e3e0; --muted: #6b6b66; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
               background: #f6f5f1; color: #1d1d1b; }
        main { max-width: 760px; margin: 0 auto; padding: 8px 20px 32px; }
        h1 { font-size: 28px; margin: 8px 0 16px; }
        h2 { font-size: 18px; margin: 24px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        .trail { max-width: 760px; margin: 0 auto; padding: 16px 20px 0; color: var(--muted); font-size: 14px; }
        .trail .sep { margin: 0 4px; }
        ul.rows { list-style: none; margin: 0; padding: 0; background: #fff; border: 1px solid var(--line);
                  border-radius: 12px; overflow: hidden; }
        ul.rows li { border-top: 1px solid var(--line); }
        ul.rows li:first-child { border-top: 0; }
        ul.rows a { display: flex; align-items: center; gap: 14px; padding: 10px 14px; color: inherit; }
        ul.rows a:hover { background: #f0f6f1; text-decoration: none; }
        .title { flex: 1; font-weight: 600; overflow-wrap: anywhere; }
        .meta { color: var(--muted); font-size: 14px; white-space: nowrap; }
        .thumb { border-radius: 8px; object-fit: cover; flex: none; background: #ddd; display: inline-block; }
        .stars { flex: none; }
        .missing { background: repeating-linear-gradient(45deg, #e6e6e2, #e6e6e2 6px, #dcdcd7 6px, #dcdcd7 12px); }
        .detail { display: block; margin: 0 auto 16px; border-radius: 12px; max-width: 100%; height: auto; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 16px 0; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; display: flex; align-items: center; gap: 10px; overflow-wrap: anywhere; }
        table.outputs { width: 100%; border-collapse: collapse; font-size: 13px; background: #fff; }
        table.outputs th, table.outputs td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); }
        table.outputs code { font-size: 12px; overflow-wrap: anywhere; }
        .num { text-align: right !important; }
        .note { color: var(--muted); }
        .hero { display: flex; align-items: center; gap: 16px; margin: 0 0 20px; }
        .app-icon { border-radius: 22%; flex: none; box-shadow: 0 1px 3px rgba(0, 0, 0, .25); }
        footer { text-align: center; color: var(--muted); font-size: 13px; padding: 24px; }

        """
}
