/*
 * megaco-bench --svg: the table as a horizontal bar chart, written as plain
 * SVG text. Left panel: mean encoded size; right panel: time per message,
 * encode and decode stacked. Erlang rows (--compare-erlang) are drawn below
 * ours in a second colour.
 */
#include <stdio.h>
#include <string.h>

#include "megaco_bench.h"

#define LABEL_W 230
#define PANEL_W 330
#define GAP 40
#define ROW_H 22
#define TOP 64

static void text_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/*
 * The method line under the chart, cut at spaces into lines of at most
 * FOOT_CHARS characters (about the chart's width at font-size 10), so none
 * runs past the right edge. Writes the lines as tspans when f is not NULL;
 * returns how many there are.
 */
#define FOOT_CHARS 185

static int foot_lines(FILE *f, const char *s, int x)
{
	int lines = 0;
	while (*s) {
		size_t len = strlen(s), cut = len;
		if (len > FOOT_CHARS) {
			cut = FOOT_CHARS;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0) /* one word longer than a line: cut it */
				cut = FOOT_CHARS;
		}
		if (f) {
			char line[FOOT_CHARS + 1];
			memcpy(line, s, cut);
			line[cut] = 0;
			fprintf(f, "<tspan x=\"%d\" dy=\"%d\">", x, lines ? 13 : 0);
			text_escaped(f, line);
			fputs("</tspan>", f);
		}
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

typedef struct bar {
	const bench_row *row;
	int erlang;
} bar;

int bench_svg_write(const char *path, const bench_report *r)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	bar bars[64];
	size_t n = 0;
	for (size_t i = 0; i < r->nrows && n < 64; i++)
		if (r->rows[i].status == ROW_OK)
			bars[n++] = (bar){ &r->rows[i], 0 };
	for (size_t i = 0; r->compare && i < r->n_erl && n < 64; i++)
		if (r->erl_rows[i].status == ROW_OK)
			bars[n++] = (bar){ &r->erl_rows[i], 1 };
	double max_size = 1, max_time = 1;
	for (size_t i = 0; i < n; i++) {
		if (bars[i].row->size > max_size)
			max_size = bars[i].row->size;
		if (bars[i].row->total_ns / 1e3 > max_time)
			max_time = bars[i].row->total_ns / 1e3;
	}
	int width = LABEL_W + 2 * PANEL_W + GAP + 80;
	int height = TOP + (int)n * ROW_H + 50 + 13 * (foot_lines(NULL, r->method, 0) - 1);
	int x1 = LABEL_W, x2 = LABEL_W + PANEL_W + GAP;
	int bar_w = PANEL_W - 70; /* room for the value after the longest bar */

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
	        width, height, width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">megaco-bench: ");
	text_escaped(f, r->set);
	fprintf(f, ", %zu messages, min-time %g s</text>\n", r->messages, r->min_time);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">mean encoded size (bytes)</text>\n", x1,
	        TOP - 14);
	fprintf(f,
	        "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">time per message (\xc2\xb5s): "
	        "<tspan fill=\"#4878b0\">encode</tspan> + <tspan fill=\"#e08a3c\">decode</tspan>"
	        "</text>\n",
	        x2, TOP - 14);
	for (size_t i = 0; i < n; i++) {
		const bench_row *row = bars[i].row;
		int y = TOP + (int)i * ROW_H;
		char label[80], l2[64];
		bench_row_label(row, l2, sizeof l2);
		snprintf(label, sizeof label, "%s%s", bars[i].erlang ? "Erlang " : "", l2);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 8, y + 15);
		text_escaped(f, label);
		fputs("</text>\n", f);
		double ws = row->size / max_size * bar_w;
		fprintf(f,
		        "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
		        "<text x=\"%.1f\" y=\"%d\">%.1f</text>\n",
		        x1, y + 3, ws, ROW_H - 6, bars[i].erlang ? "#999999" : "#5a9e5a", x1 + ws + 4,
		        y + 15, row->size);
		double we = row->encode_ns / 1e3 / max_time * bar_w;
		double wd = row->decode_ns / 1e3 / max_time * bar_w;
		fprintf(f,
		        "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
		        "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
		        "<text x=\"%.1f\" y=\"%d\">%.3f</text>\n",
		        x2, y + 3, we, ROW_H - 6, bars[i].erlang ? "#8fa6bf" : "#4878b0", x2 + we, y + 3, wd,
		        ROW_H - 6, bars[i].erlang ? "#d6b08e" : "#e08a3c", x2 + we + wd + 4, y + 15,
		        row->total_ns / 1e3);
	}
	int yb = TOP + (int)n * ROW_H + 6;
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x1, TOP, x1, yb);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x2, TOP, x2, yb);
	fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"10\" fill=\"#555\">", yb + 24);
	foot_lines(f, r->method, 10);
	fputs("</text>\n</svg>\n", f);
	int bad = ferror(f);
	return fclose(f) != 0 || bad ? -1 : 0;
}
