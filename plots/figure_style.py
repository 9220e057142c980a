"""One look for every figure pcisim's scripts draw (plots/regenerate, plots/receive, plots/tcp):
the same width, resolution and font sizes, saved as PNG and SVG."""
import os

import matplotlib

matplotlib.use("Agg")  # headless: no display needed
import matplotlib.pyplot as plt  # noqa: E402

WIDTH_IN = 12  # every figure; the height follows its panels
HEIGHT_IN = 7  # a figure of one plot
DPI = 120

plt.rcParams.update({
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 8.5,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "figure.titlesize": 12,
})


def save(fig, out, name):
    """NAME.png and NAME.svg in OUT; returns their paths.  The SVG keeps the layout the PNG was
    drawn with: laying out a figure of many panels again (constrained layout) costs a third
    of drawing it, and would only move its panels by a fraction of a point."""
    paths = []
    for ext in ("png", "svg"):
        path = os.path.join(out, "%s.%s" % (name, ext))
        fig.savefig(path, dpi=DPI)
        fig.set_layout_engine("none")
        paths.append(path)
    plt.close(fig)
    return paths
