#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of an `nxp report` page and of Chromium's rendering of it.

  report_check.py html FILE [--max-bytes N] [--sections a,b,...] [--hostile]
      the file is self-contained: no <script>, <link>, <iframe>, <object>,
      <embed>, <base>, no src/href/xlink:href/action other than "#..." or
      "data:", no url(...) or @import in CSS, no "//" or http(s): anywhere in
      an attribute; the named sections (id=) are present; with --hostile, the
      profile's injection strings appear escaped and never as markup.
  report_check.py dom FILE [--sections ...] [--hostile]
      Chromium's --dump-dom of the page: the same elements (the page loaded),
      no <script>/<img> element, title not changed by a script.
  report_check.py log FILE
      Chromium's stderr: no console errors ("Uncaught", "ERROR:CONSOLE",
      "Refused to", CSP violations).
  report_check.py png FILE [--min-colours N]
      the screenshot decoded with zlib: not blank (many distinct colours), and
      the activity picture drawn (pixels of at least three of the engine /
      DMA hues).
Exit 0 when every check holds, 1 with one line per failure otherwise.
"""
import html.parser
import re
import struct
import sys
import zlib

FAIL = []


def fail(msg):
    FAIL.append(msg)


class Walk(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []       # (tag, attrs)
        self.ids = set()
        self.title = ''      # text of the page's (first) <title>
        self.titles = 0
        self._in_title = False
        self.style = ''
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        for k, v in attrs:
            if k == 'id' and v:
                self.ids.add(v)
        self._in_title = tag == 'title' and not self.titles
        self.titles += tag == 'title'
        self._in_style = tag == 'style'

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self._in_title = self._in_style = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._in_style:
            self.style += data


FORBIDDEN_TAGS = {'script', 'link', 'iframe', 'object', 'embed', 'base', 'frame', 'img', 'image', 'use',
                  'audio', 'video', 'source', 'form', 'foreignobject'}
URL_ATTRS = {'src', 'href', 'xlink:href', 'action', 'formaction', 'poster', 'data', 'srcset', 'background'}


def check_markup(text, sections, hostile, what):
    w = Walk()
    w.feed(text)
    for tag, attrs in w.tags:
        if tag in FORBIDDEN_TAGS:
            fail(f'{what}: <{tag}> element {attrs!r}')
        for k, v in attrs:
            v = v or ''
            if k.startswith('on'):
                fail(f'{what}: event handler attribute {k}= on <{tag}>')
            if k in URL_ATTRS and not (v.startswith('#') or v.startswith('data:')):
                fail(f'{what}: <{tag} {k}="{v}"> refers outside the page')
            if re.search(r'(?i)https?:|//|file:|ftp:', v):
                fail(f'{what}: <{tag} {k}="{v}"> holds a URL')
            if k == 'style' and re.search(r'(?i)url\s*\(|@import', v):
                fail(f'{what}: <{tag} style=...> fetches something')
    if re.search(r'(?i)url\s*\(|@import|https?:|//', w.style):
        fail(f'{what}: the stylesheet refers outside the page')
    for s in sections:
        if s not in w.ids:
            fail(f'{what}: section id="{s}" missing')
    if w.title.strip() == 'PWNED' or not w.title.startswith(('Profile report', 'Capture report')):
        fail(f'{what}: the title was changed by injected script: {w.title!r}')
    return w


def opt(args, name, default=None):
    if name in args:
        i = args.index(name)
        return args[i + 1]
    return default


def cmd_html(path, args):
    raw = open(path, 'rb').read()
    max_bytes = int(opt(args, '--max-bytes', '4000000'))
    if len(raw) > max_bytes:
        fail(f'{path}: {len(raw)} bytes > {max_bytes}')
    if len(raw) < 2000:
        fail(f'{path}: only {len(raw)} bytes')
    text = raw.decode('utf-8', errors='replace')
    if not text.startswith('<!DOCTYPE html>'):
        fail(f'{path}: does not start with <!DOCTYPE html>')
    if not text.rstrip().endswith('</html>'):
        fail(f'{path}: does not end with </html> (cut short?)')
    sections = [s for s in (opt(args, '--sections', '') or '').split(',') if s]
    check_markup(text, sections, '--hostile' in args, path)
    if '--hostile' in args:
        if re.search(r'(?i)<\s*script|<\s*img', text):
            fail(f'{path}: an injected tag is in the page unescaped')
        if text.count('&lt;script&gt;') < 3:
            fail(f'{path}: the hostile strings are not shown escaped (&lt;script&gt; {text.count("&lt;script&gt;")} times)')
    # the activity picture has drawn bands
    if 'id="activity"' in text and not re.search(r'<svg id="activity"[^>]*>.*?<path fill=', text, re.S):
        fail(f'{path}: the activity picture has no bands')


def cmd_dom(path, args):
    text = open(path, encoding='utf-8', errors='replace').read()
    if '<body' not in text:
        fail(f'{path}: no <body> in the DOM dump: the page did not load')
    sections = [s for s in (opt(args, '--sections', '') or '').split(',') if s]
    check_markup(text, sections, '--hostile' in args, path + ' (DOM)')


def cmd_log(path, args):
    for line in open(path, encoding='utf-8', errors='replace'):
        if re.search(r'Uncaught|ERROR:CONSOLE|Refused to|Content Security Policy|Failed to load|net::ERR_',
                     line):
            fail(f'{path}: console: {line.strip()[:300]}')


def png_pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, ihdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f'unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})')
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    p = 0
    for _ in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def cmd_png(path, args):
    try:
        w, h, bpp, rows = png_pixels(path)
    except Exception as e:  # noqa: BLE001 - any decoding failure is a test failure
        fail(f'{path}: cannot decode: {e}')
        return
    colours = set()
    hues = {'red': 0, 'teal': 0, 'purple': 0, 'blue': 0, 'orange': 0, 'green': 0}
    nonwhite = 0
    for row in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            colours.add((r, g, b))
            if r < 245 or g < 245 or b < 245:
                nonwhite += 1
            mx, mn = max(r, g, b), min(r, g, b)
            if mx - mn < 60:
                continue
            if r == mx and b == mn and g < r * 0.7:
                hues['red'] += 1
            elif r == mx and g > r * 0.55:
                hues['orange'] += 1
            elif g == mx and b > r and b > g * 0.75:
                hues['teal'] += 1
            elif g == mx:
                hues['green'] += 1
            elif b == mx and r > g:
                hues['purple'] += 1
            elif b == mx:
                hues['blue'] += 1
    min_colours = int(opt(args, '--min-colours', '64'))
    if len(colours) < min_colours:
        fail(f'{path}: {len(colours)} distinct colours < {min_colours}: blank page?')
    if nonwhite < w * h // 50:
        fail(f'{path}: only {nonwhite} non-white pixels of {w * h}')
    drawn = [k for k, v in hues.items() if v >= 150]
    if len(drawn) < 3:
        fail(f'{path}: the activity picture is not drawn: saturated pixels per hue {hues}')
    print(f'{path}: {w}x{h}, {len(colours)} colours, hues {hues}')


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    kind, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    {'html': cmd_html, 'dom': cmd_dom, 'log': cmd_log, 'png': cmd_png}[kind](path, args)
    for m in FAIL:
        print('FAIL ' + m, file=sys.stderr)
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
