/// The HTML report's only stylesheet, inline: Okabe–Ito colours (blue `#0072B2` for PASS, vermillion `#D55E00` for
/// FAIL, each with its word and a different border; a badge or a mark never wraps inside), and a print section that
/// keeps sections whole on paper and prints the colours.
enum HTMLStyle {
    static let sheet = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #111; background: #fff; }
        h1 { font-size: 1.6em; margin: 0 0 .3em; }
        h2 { font-size: 1.15em; margin: 0 0 .4em; word-break: break-all; }
        table { border-collapse: collapse; margin: .8em 0 1.2em; }
        caption { text-align: left; font-weight: bold; padding-bottom: .3em; }
        th, td { border: 1px solid #999; padding: .25em .5em; text-align: left; vertical-align: top; }
        td.number { text-align: right; }
        .badge { display: inline-block; font-weight: bold; padding: 0 .4em; border-radius: 3px; white-space: nowrap; }
        .badge.pass { background: #0072B2; color: #fff; border: 2px solid #0072B2; }
        .badge.fail { background: #D55E00; color: #000; border: 2px dashed #000; }
        tr.fail td { background: #fbe3d3; }
        section.probe { margin: 1em 0; padding: .6em 1em; border-left: 8px solid #0072B2; break-inside: avoid; }
        section.probe.fail { border-left: 8px dashed #D55E00; }
        .reason { font-family: ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
        mark.short { background: #F0E442; color: #000; font-weight: bold; outline: 2px solid #000; padding: 0 .2em; white-space: nowrap; }
        dl.facts, dl.labels { display: grid; grid-template-columns: max-content 1fr; gap: .1em 1em; margin: .4em 0; }
        dt { font-weight: bold; }
        dd { margin: 0; word-break: break-all; }
        ul.retried { margin: 0; padding-left: 1.2em; font-family: ui-monospace, monospace; }
        svg.waterfall { max-width: 100%; height: auto; display: block; margin: .4em 0; }
        svg.waterfall text { font: 12px sans-serif; fill: #000; }
        p.distribution { color: #333; font-style: italic; margin: .4em 0 0; }
        svg.distribution { max-width: 100%; height: auto; display: block; margin: .2em 0; }
        svg.distribution text { font: 12px sans-serif; fill: #000; }
        table.spread { margin: .3em 0 .6em; }
        table.spread th, table.spread td { padding: .1em .5em; }
        @page { margin: 1.5cm; }
        @media print {
            body { margin: 0; font-size: 10pt; }
            * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
            a { color: inherit; text-decoration: none; }
            table, section { break-inside: avoid; }
            tr.fail td { background: none; font-weight: bold; }
        }

        """
}
