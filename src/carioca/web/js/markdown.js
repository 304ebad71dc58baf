// The plain text the rules are written in (carioca.describe: headings, paragraphs, lists and
// tables) as page elements. Every piece of text goes in by textContent, never as HTML, so
// nothing in the text can become markup.

/** The blocks of `text`, as elements to append: h1/h2, p, ul, ol and tables (each in a
 * div.rules-scroll). */
export function renderMarkdown(text) {
  const out = [];
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      out.push(element("h" + heading[1].length, heading[2]));
      i += 1;
    } else if (line.startsWith("|")) {
      i = block(lines, i, (l) => l.startsWith("|"), (rows) => out.push(table(rows)));
    } else if (/^- /.test(line)) {
      i = block(lines, i, (l) => /^- /.test(l), (items) => out.push(list("ul", items, /^- /)));
    } else if (/^\d+\. /.test(line)) {
      i = block(lines, i, (l) => /^\d+\. /.test(l), (items) => out.push(list("ol", items, /^\d+\. /)));
    } else {
      // The first line always goes in: a line no other block takes ("#x") is a paragraph.
      i = block(lines, i + 1, (l) => l.trim() && !/^(#|\||- |\d+\. )/.test(l),
        (rest) => out.push(element("p", [line, ...rest].join(" "))));
    }
  }
  return out;
}

/** The run of lines from `start` that `fits`, handed to `take`; the index after the run. */
function block(lines, start, fits, take) {
  let end = start;
  while (end < lines.length && fits(lines[end])) end += 1;
  take(lines.slice(start, end));
  return end;
}

function element(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

function list(tag, items, marker) {
  const el = document.createElement(tag);
  for (const item of items) el.append(element("li", item.replace(marker, "")));
  return el;
}

function cells(row) {
  return row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** A table in a box that scrolls sideways on a narrow phone (the table keeps its own
 * display, so screen readers still read it as a table). */
function table(rows) {
  const box = document.createElement("div");
  box.className = "rules-scroll";
  const el = document.createElement("table");
  el.className = "rules-table";
  box.append(el);
  const [head, ...rest] = rows;
  const body = rest.filter((r) => !/^\|[\s|:-]+\|$/.test(r.trim()));  // the |---| line
  const thead = el.createTHead().insertRow();
  for (const c of cells(head)) thead.append(element("th", c));
  const tbody = el.createTBody();
  for (const r of body) {
    const tr = tbody.insertRow();
    for (const c of cells(r)) tr.append(element("td", c));
  }
  return box;
}
