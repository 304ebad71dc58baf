// The texts of a page below WCAG AA contrast (tests/test_web_access.py evaluates this).
() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(parseFloat); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const under = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return null;
      const c = parse(s.backgroundColor); if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    return layers.reverse().reduce((acc, l) => over(l, acc), {r: 255, g: 255, b: 255, a: 1}); };
  const low = [], seen = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (r.width <= 1 || r.height <= 1 || s.visibility === 'hidden' || el.closest('svg, :disabled')) continue;
    const back = under(el);
    if (!back) continue;
    let alpha = 1;
    for (let e = el; e; e = e.parentElement) alpha *= parseFloat(getComputedStyle(e).opacity);
    const fg = parse(s.color), text = over({...fg, a: fg.a * alpha}, back);
    const [hi, lo] = [lum(text), lum(back)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05), size = parseFloat(s.fontSize);
    const need = size >= 24 || (parseInt(s.fontWeight, 10) >= 700 && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) low.push(`${ratio.toFixed(2)} "${walk.currentNode.textContent.trim().slice(0, 30)}"`);
  }
  return low;
}
