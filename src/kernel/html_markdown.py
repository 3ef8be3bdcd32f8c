# HTML-only values (IPython's HTML(...), a _repr_html_ without a markdown form) as markdown for the
# sidecar's Python kernel, so they read as text and tables stay tables. Loaded as module `sidecar_html`.


class _HtmlToMarkdown:
    """HTML as markdown text: tables stay tables, headings, lists, links, emphasis and code keep
    their marks, <style>/<script> are dropped. Built on html.parser (imported on first use)."""

    BLOCKS = {"p", "div", "section", "article", "header", "footer", "ul", "ol", "blockquote", "table", "caption"}
    MARKS = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`"}

    def __init__(self):
        from html.parser import HTMLParser

        converter = self

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs):
                converter.start(tag, dict(attrs))

            def handle_endtag(self, tag):
                converter.end(tag)

            def handle_data(self, data):
                converter.data(data)

        self.parser = Parser(convert_charrefs=True)
        self.out = []
        self.skip = 0
        self.rows = None
        self.headings = []
        self.row = None
        self.row_heading = False
        self.cell = None
        self.href = None
        self.pre = 0

    def convert(self, html):
        self.parser.feed(html)
        self.parser.close()
        text = "".join(self.out)
        lines = [line.rstrip() for line in text.split("\n")]
        collapsed = []
        for line in lines:
            if line or (collapsed and collapsed[-1]):
                collapsed.append(line)
        return "\n".join(collapsed).strip()

    def write(self, text):
        if self.skip:
            return
        if self.cell is not None:
            self.cell.append(text)
        else:
            self.out.append(text)

    def start(self, tag, attrs):
        if tag in ("style", "script"):
            self.skip += 1
        elif tag == "pre":
            self.pre += 1
            self.write("\n\n```\n")
        elif tag == "table":
            self.rows, self.headings = [], []
        elif tag == "tr" and self.rows is not None:
            self.row, self.row_heading = [], True
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.row_heading = self.row_heading and tag == "th"
        elif tag in self.BLOCKS:
            self.write("\n\n")
        elif tag == "br":
            self.write("\n")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.write("\n\n" + "#" * int(tag[1]) + " ")
        elif tag == "li":
            self.write("\n- ")
        elif tag in self.MARKS:
            self.write(self.MARKS[tag])
        elif tag == "a":
            self.href = attrs.get("href")
            self.write("[")

    def end(self, tag):
        if tag in ("style", "script"):
            self.skip = max(0, self.skip - 1)
        elif tag == "pre" and self.pre:
            self.pre -= 1
            self.write("\n```\n\n")
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()).replace("|", "\\|"))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.rows is not None:
            if self.row:
                self.rows.append(self.row)
                self.headings.append(self.row_heading)
            self.row = None
        elif tag == "table" and self.rows is not None:
            # The leading rows of <th> cells only are the header (pandas writes two: names, then the index's name).
            header_rows = next((i for i, heading in enumerate(self.headings) if not heading), len(self.headings))
            self.out.append("\n\n" + self.table(self.rows, header_rows) + "\n\n")
            self.rows = None
        elif tag in self.BLOCKS or tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.write("\n\n")
        elif tag in self.MARKS:
            self.write(self.MARKS[tag])
        elif tag == "a":
            self.write(f"]({self.href})" if self.href else "]")
            self.href = None

    def data(self, text):
        # Outside <pre> HTML folds whitespace; inside a table cell it is folded when the cell ends.
        self.write(text if self.cell is not None or self.pre else text.replace("\n", " "))

    @staticmethod
    def table(rows, header_rows):
        if not rows:
            return ""
        width = max(len(row) for row in rows)
        rows = [row + [""] * (width - len(row)) for row in rows]
        # Several header rows are joined column by column; a table with none takes its first row.
        head_count = max(1, header_rows)
        head = [" ".join(part for part in column if part) for column in zip(*rows[:head_count])]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(row) + " |" for row in rows[head_count:]]
        return "\n".join(lines)


def html_markdown(html):
    """HTML-only output (HTML(...), _repr_html_) as markdown, so it reads as text and tables stay tables."""
    return _HtmlToMarkdown().convert(html)
