# Rendering values for the sidecar's Python kernel: MIME bundles with markdown tables for pandas
# DataFrames and PNGs for matplotlib figures. Loaded as module `sidecar_display`.
import binascii  # base64's own encoder, without the base64 module's import at start-up
import io

REPR_MAX_CHARS = 20_000
FRAME_MAX_ROWS = 20
FRAME_MAX_COLUMNS = 12
FRAME_CELL_MAX_CHARS = 60

# Figures already shown in this cell (display(fig), a figure as the last expression), by id.
shown_figures = set()


def _cap(text, limit=REPR_MAX_CHARS):
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


def _cell_text(value):
    text = str(value).replace("\n", " ").replace("|", "\\|")
    return text if len(text) <= FRAME_CELL_MAX_CHARS else text[: FRAME_CELL_MAX_CHARS - 1] + "…"


def frame_markdown(frame):
    rows, columns = frame.shape
    shown_rows = min(rows, FRAME_MAX_ROWS)
    shown_columns = min(columns, FRAME_MAX_COLUMNS)
    part = frame.iloc[:shown_rows, :shown_columns]
    header = [_cell_text(frame.index.name or "")] + [_cell_text(c) for c in part.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for index, row in zip(part.index, part.itertuples(index=False, name=None)):
        lines.append("| " + " | ".join([_cell_text(index)] + [_cell_text(v) for v in row]) + " |")
    shape = f"{rows} rows × {columns} columns"
    cuts = []
    if shown_rows < rows:
        cuts.append(f"{shown_rows} of {rows} rows shown")
    if shown_columns < columns:
        cuts.append(f"{shown_columns} of {columns} columns shown")
    lines.append("")
    lines.append(shape + (f" ({', '.join(cuts)})" if cuts else ""))
    return "\n".join(lines)


def figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return binascii.b2a_base64(buffer.getvalue(), newline=False).decode("ascii")



def mime_bundle(value):
    bundle = {}
    module = type(value).__module__ or ""
    if module.startswith("pandas") and type(value).__name__ == "DataFrame":
        bundle["text/markdown"] = frame_markdown(value)
    elif module.startswith("pandas") and type(value).__name__ == "Styler":
        # A styled frame: its data as the table; colours and formats have no markdown.
        bundle["text/markdown"] = frame_markdown(value.data) + " (styled; the styles are not shown)"
    elif module.startswith("matplotlib") and hasattr(value, "savefig"):
        bundle["image/png"] = figure_png(value)
        shown_figures.add(id(value))
        return bundle
    else:
        for method, mime in (("_repr_png_", "image/png"), ("_repr_markdown_", "text/markdown")):
            render = getattr(value, method, None)
            if callable(render) and not isinstance(value, type):
                try:
                    data = render()
                except Exception:
                    data = None
                if isinstance(data, tuple):
                    data = data[0]
                if isinstance(data, bytes) and mime == "image/png":
                    bundle[mime] = binascii.b2a_base64(data, newline=False).decode("ascii")
                elif isinstance(data, str) and mime == "image/png" and data:
                    # IPython.display.Image answers already base64-encoded text.
                    bundle[mime] = data
                elif isinstance(data, str) and mime == "text/markdown":
                    bundle[mime] = data
        render = getattr(value, "_repr_html_", None)
        if not bundle and callable(render) and not isinstance(value, type):
            try:
                html = render()
            except Exception:
                html = None
            if isinstance(html, tuple):
                html = html[0]
            if isinstance(html, str) and html.strip():
                from sidecar_html import html_markdown

                bundle["text/markdown"] = _cap(html_markdown(html))
    try:
        bundle["text/plain"] = _cap(repr(value))
    except Exception as error:
        bundle["text/plain"] = f"<repr failed: {type(error).__name__}: {error}>"
    return bundle
