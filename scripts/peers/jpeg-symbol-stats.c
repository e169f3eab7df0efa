// SPDX-License-Identifier: Apache-2.0
// jpeg-symbol-stats.c: issue 30's look inside baseline JPEG scans, and a DC-only skip-decoder
// prototype. Not part of ThumbKit; a measuring tool for the spike.
//
// For every baseline/extended Huffman JPEG (SOF0/SOF1) given, it parses SOF, DHT, DRI and SOS
// itself, Huffman-decodes every scan with a plain reference decoder and counts:
//   - DC and AC codes longer than 8 bits (libjpeg-turbo 2.1.5's lookahead is 8 bits);
//   - code+magnitude lengths <= 8, <= 12, <= 14, <= 16;
//   - consecutive AC symbols (EOB included, within one block) whose two or three
//     code+magnitude lengths fit together in 12, 14 and 16 bits, and the symbols per lookup a
//     greedy 2- or 3-symbol table of that width would take;
//   - AC symbols per block (with and without EOB);
//   - the restart interval (DRI) and the chroma subsampling.
// It checks itself: the DC values it reconstructs must equal libjpeg's jpeg_read_coefficients
// for every block of every component; mismatches are counted and reported per file.
// Progressive, arithmetic and lossless files are listed and skipped.
//
// With -t ROUNDS it also times, per file (median of ROUNDS interleaved rounds, this process's
// CPU time), a DC-only skip decoder: a 64-bit bit buffer refilled 8 bytes at a time when no
// 0xFF is near, and an AC table whose entries give the total code+magnitude bits and the
// advance in the block of up to 1, 2 or 3 symbols, values never extracted. Six shapes: 1 symbol
// per lookup at 9 and 12 bits, 2 at 14 bits, 3 at 12, 14 and 16 bits (table building included
// in the time, and also reported alone). Against it: libjpeg-turbo's 1/8 decode (JCS_RGB,
// defaults) of the same bytes in memory. Every skip decoder's DC output is compared with
// libjpeg's coefficients before timing. The DC output alone equals libjpeg's 1/8 only for gray
// and 4:4:4 files (at 1/8 libjpeg gives subsampled chroma a 2x2 IDCT, which reads AC), so the
// totals are given for all files and for gray+4:4:4 alone. The prototype assumes valid data
// (a bad code fails the file rather than being tolerated as libjpeg does).
//
// Usage: jpeg-symbol-stats [-t ROUNDS] [-l] FILE...
//   -l  only list each file's kind (baseline, progressive, other, unreadable), tab, path
// Build with scripts/peers/build-decode-floor.
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>
#include "peer_common.h"

// MARK: - File model

typedef struct {
    int present;
    uint8_t counts[17];  // codes of each length 1..16
    uint8_t values[256];
    int maxcode[18];  // largest code of each length, -1 if none
    int valptr[17];
    int mincode[17];
    uint16_t look[1 << 9];  // 9-bit lookahead: (length << 8) | symbol, 0 = longer
} huff_table;

typedef struct {
    int id, h, v, tq;
    int td, ta;  // table selectors in the current scan
    int wblocks, hblocks;  // blocks covering the component (libjpeg's width/height_in_blocks)
    int dcw, dch;  // the DC arrays' size (padded to whole MCUs)
    int *dc;  // reference decoder's DC values
    int *dc_fast;  // skip decoder's DC values
} component;

typedef struct {
    const char *path;
    uint8_t *data;
    size_t size;
    int kind;  // 0 baseline/extended Huffman, 1 progressive, 2 other, 3 unreadable
    int width, height, ncomp, hmax, vmax;
    component c[4];
    huff_table dc[4], ac[4];
    int dri;  // last restart interval seen (0: none)
    int dri_any;  // a DRI marker with a nonzero interval was seen
    int scans;
} jfile;

typedef struct {
    uint64_t blocks, dc_codes, dc_long, ac_codes, ac_long, eobs;
    uint64_t dc_tot[4], ac_tot[4];  // code+magnitude <= 8, 12, 14, 16
    uint64_t pairs, pair_fit[3], triples, triple_fit[3];  // fit in 12, 14, 16
    uint64_t greedy_lookups[2][3];  // [max 2 or 3 symbols][12, 14, 16 bits]
    uint64_t ac_syms_all;  // AC symbols including EOB
    uint64_t skipped_blocks;  // after the data ran out (corrupt files)
} stats;

static const int widths[3] = {12, 14, 16};


static int build_huff(huff_table *t) {
    int code = 0, k = 0;
    memset(t->look, 0, sizeof(t->look));
    for (int len = 1; len <= 16; len++) {
        t->valptr[len] = k;
        t->mincode[len] = code;
        for (int i = 0; i < t->counts[len]; i++) {
            if (len <= 9) {
                int fill = 1 << (9 - len);
                for (int j = 0; j < fill; j++) t->look[(code << (9 - len)) | j] = (uint16_t)(len << 8 | t->values[k]);
            }
            code++;
            k++;
        }
        t->maxcode[len] = t->counts[len] ? code - 1 : -1;
        if (code > (1 << len)) return -1;
        code <<= 1;
    }
    t->maxcode[17] = 0x7fffffff;
    return 0;
}

// MARK: - Reference bit reader (byte at a time)

typedef struct {
    const uint8_t *p, *end;
    uint64_t buf;  // MSB-aligned
    int bits;
    int at_marker;  // a marker (not stuffing) was reached: zeros are fed from here
    int fake;  // zero bits fed after the marker (the low end of buf)
    int insufficient;  // bits past the marker were used: libjpeg's insufficient_data
} bitreader;

static void br_fill(bitreader *b) {
    while (b->bits <= 56) {
        unsigned c = 0;
        if (!b->at_marker && b->p < b->end) {
            c = *b->p;
            if (c == 0xFF) {
                unsigned next = b->p + 1 < b->end ? b->p[1] : 0xD9;
                if (next == 0) {
                    b->p += 2;
                } else {
                    b->at_marker = 1;
                    c = 0;
                }
            } else {
                b->p++;
            }
        }
        if (b->at_marker) b->fake += 8;
        b->buf |= (uint64_t)c << (56 - b->bits);
        b->bits += 8;
    }
}

static inline unsigned br_peek(bitreader *b, int n) { return (unsigned)(b->buf >> (64 - n)); }
static inline void br_skip(bitreader *b, int n) {
    b->buf <<= n;
    b->bits -= n;
    if (b->bits < b->fake) b->insufficient = 1;
}

// Decodes one Huffman symbol; returns it and its code length in *len (17 for a bad code).
static int br_symbol(bitreader *b, const huff_table *t, int *len) {
    if (b->bits < 32) br_fill(b);
    unsigned e = t->look[br_peek(b, 9)];
    if (e) {
        *len = e >> 8;
        br_skip(b, *len);
        return e & 0xFF;
    }
    unsigned code = br_peek(b, 16);
    for (int l = 10; l <= 16; l++) {
        int c = (int)(code >> (16 - l));
        if (c <= t->maxcode[l]) {
            *len = l;
            br_skip(b, l);
            return t->values[t->valptr[l] + c - t->mincode[l]];
        }
    }
    // No code matches: as libjpeg's jpeg_huff_decode, warn (here: count), drop 17 bits and
    // take symbol 0 (a zero DC difference, or EOB).
    br_skip(b, 17);
    *len = 17;
    return 0;
}

static inline int extend(unsigned v, int s) { return s == 0 ? 0 : (v < (1u << (s - 1)) ? (int)v - (1 << s) + 1 : (int)v); }

// After a restart interval: drop the partial byte, step over RSTn, reset DC predictors.
static const uint8_t *restart_at(const uint8_t *p, const uint8_t *end) {
    while (p + 1 < end && !(p[0] == 0xFF && p[1] >= 0xD0 && p[1] <= 0xD7)) p++;
    return p + 1 < end ? p + 2 : end;
}

// MARK: - Reference scan decoder with statistics

typedef struct {
    int ns;
    int comp[4];  // component indices in the scan
} scan_info;

static int mcu_geometry(const jfile *f, const scan_info *s, int *mcux, int *mcuy) {
    if (s->ns == 1) {
        *mcux = f->c[s->comp[0]].wblocks;
        *mcuy = f->c[s->comp[0]].hblocks;
    } else {
        *mcux = (f->width + 8 * f->hmax - 1) / (8 * f->hmax);
        *mcuy = (f->height + 8 * f->vmax - 1) / (8 * f->vmax);
    }
    return 0;
}

static void count_tot(uint64_t *hist, int n) {
    if (n <= 8) hist[0]++;
    if (n <= 12) hist[1]++;
    if (n <= 14) hist[2]++;
    if (n <= 16) hist[3]++;
}

static void block_sequence_stats(stats *st, const int *seq, int n) {
    for (int i = 0; i + 1 < n; i++) {
        st->pairs++;
        int two = seq[i] + seq[i + 1];
        for (int w = 0; w < 3; w++) st->pair_fit[w] += two <= widths[w];
        if (i + 2 < n) {
            st->triples++;
            int three = two + seq[i + 2];
            for (int w = 0; w < 3; w++) st->triple_fit[w] += three <= widths[w];
        }
    }
    for (int m = 0; m < 2; m++) {
        int maxsyms = m + 2;
        for (int w = 0; w < 3; w++) {
            int i = 0;
            while (i < n) {
                int sum = 0, taken = 0;
                while (i + taken < n && taken < maxsyms && sum + seq[i + taken] <= widths[w]) sum += seq[i + taken++];
                if (taken == 0) taken = 1;
                i += taken;
                st->greedy_lookups[m][w]++;
            }
        }
    }
}

// Returns the position after the scan's entropy data, or NULL on a decoding error.
static const uint8_t *decode_scan_ref(jfile *f, const scan_info *s, const uint8_t *p, stats *st) {
    bitreader b = {.p = p, .end = f->data + f->size};
    int mcux, mcuy;
    mcu_geometry(f, s, &mcux, &mcuy);
    int pred[4] = {0};
    long total = (long)mcux * mcuy, done = 0;
    int seq[80];
    for (int my = 0; my < mcuy; my++) {
        for (int mx = 0; mx < mcux; mx++) {
            if (f->dri && done > 0 && done % f->dri == 0) {
                b.p = restart_at(b.p, b.end);
                b.buf = 0;
                b.bits = 0;
                b.at_marker = 0;
                b.fake = 0;
                b.insufficient = 0;
                memset(pred, 0, sizeof(pred));
            }
            // As libjpeg: once the data ran out (a marker came early), the rest of the restart
            // interval is not decoded and its blocks stay zero.
            int skip = b.insufficient;
            for (int ci = 0; ci < s->ns; ci++) {
                component *c = &f->c[s->comp[ci]];
                int bh = s->ns == 1 ? 1 : c->h, bv = s->ns == 1 ? 1 : c->v;
                for (int yy = 0; yy < bv; yy++) {
                    for (int xx = 0; xx < bh; xx++) {
                        if (skip) {
                            int bx = s->ns == 1 ? mx : mx * c->h + xx, by = s->ns == 1 ? my : my * c->v + yy;
                            c->dc[by * c->dcw + bx] = 0;
                            st->skipped_blocks++;
                            continue;
                        }
                        int len, sym = br_symbol(&b, &f->dc[c->td], &len);
                        if (sym > 15) return NULL;
                        if (b.bits < 32) br_fill(&b);
                        int diff = extend(sym ? br_peek(&b, sym) : 0, sym);
                        br_skip(&b, sym);
                        st->dc_codes++;
                        st->dc_long += len > 8;
                        count_tot(st->dc_tot, len + sym);
                        pred[ci] += diff;
                        int bx = s->ns == 1 ? mx : mx * c->h + xx, by = s->ns == 1 ? my : my * c->v + yy;
                        c->dc[by * c->dcw + bx] = pred[ci];
                        int n = 0;
                        for (int k = 1; k < 64;) {
                            int rs = br_symbol(&b, &f->ac[c->ta], &len);
                            if (rs < 0) return NULL;
                            int r = rs >> 4, sz = rs & 15;
                            if (b.bits < 32) br_fill(&b);
                            br_skip(&b, sz);
                            st->ac_codes++;
                            st->ac_long += len > 8;
                            count_tot(st->ac_tot, len + sz);
                            seq[n++] = len + sz;
                            if (sz == 0) {
                                if (r == 15) {
                                    k += 16;
                                    continue;
                                }
                                st->eobs++;
                                break;
                            }
                            k += r + 1;
                        }
                        st->ac_syms_all += n;
                        st->blocks++;
                        block_sequence_stats(st, seq, n);
                    }
                }
            }
            done++;
        }
    }
    (void)total;
    // Step to the next marker that is not stuffing or a restart.
    const uint8_t *q = b.p;
    while (q + 1 < b.end && !(q[0] == 0xFF && q[1] != 0 && !(q[1] >= 0xD0 && q[1] <= 0xD7) && q[1] != 0xFF)) q++;
    return q;
}

// MARK: - Marker parsing

static int be16(const uint8_t *p) { return p[0] << 8 | p[1]; }

static void free_file(jfile *f) {
    for (int i = 0; i < 4; i++) {
        free(f->c[i].dc);
        free(f->c[i].dc_fast);
        f->c[i].dc = f->c[i].dc_fast = NULL;
    }
}

static int parse_sof(jfile *f, const uint8_t *p, int len) {
    if (len < 8) return -1;
    f->height = be16(p + 1);
    f->width = be16(p + 3);
    f->ncomp = p[5];
    if (f->ncomp < 1 || f->ncomp > 4 || len < 6 + 3 * f->ncomp || p[0] != 8) return -1;
    f->hmax = f->vmax = 1;
    for (int i = 0; i < f->ncomp; i++) {
        component *c = &f->c[i];
        c->id = p[6 + 3 * i];
        c->h = p[7 + 3 * i] >> 4;
        c->v = p[7 + 3 * i] & 15;
        c->tq = p[8 + 3 * i];
        if (c->h < 1 || c->h > 4 || c->v < 1 || c->v > 4) return -1;
        if (c->h > f->hmax) f->hmax = c->h;
        if (c->v > f->vmax) f->vmax = c->v;
    }
    int mcux = (f->width + 8 * f->hmax - 1) / (8 * f->hmax), mcuy = (f->height + 8 * f->vmax - 1) / (8 * f->vmax);
    for (int i = 0; i < f->ncomp; i++) {
        component *c = &f->c[i];
        c->wblocks = (int)(((long)f->width * c->h + 8L * f->hmax - 1) / (8L * f->hmax));
        c->hblocks = (int)(((long)f->height * c->v + 8L * f->vmax - 1) / (8L * f->vmax));
        c->dcw = mcux * c->h;
        c->dch = mcuy * c->v;
        if (c->dcw < c->wblocks) c->dcw = c->wblocks;
        if (c->dch < c->hblocks) c->dch = c->hblocks;
        // Once per file: walk() runs many times over one file (timing rounds), and fresh
        // pages would add page faults to every timed round.
        if (c->dc == NULL) c->dc = calloc((size_t)c->dcw * c->dch, sizeof(int));
        if (c->dc_fast == NULL) c->dc_fast = calloc((size_t)c->dcw * c->dch, sizeof(int));
    }
    return 0;
}

static int parse_dht(jfile *f, const uint8_t *p, int len) {
    int pos = 0;
    while (pos + 17 <= len) {
        int tc = p[pos] >> 4, th = p[pos] & 15;
        if (tc > 1 || th > 3) return -1;
        huff_table *t = tc ? &f->ac[th] : &f->dc[th];
        int total = 0;
        t->counts[0] = 0;
        for (int i = 1; i <= 16; i++) total += t->counts[i] = p[pos + i];
        if (total > 256 || pos + 17 + total > len) return -1;
        memcpy(t->values, p + pos + 17, (size_t)total);
        t->present = 1;
        if (build_huff(t) != 0) return -1;
        pos += 17 + total;
    }
    return 0;
}

// The Annex K tables, taken from libjpeg's own (jpeg_set_defaults fills them in).
static void std_table(huff_table *t, int ac, int index) {
    struct jpeg_compress_struct cc;
    struct jpeg_error_mgr je;
    cc.err = jpeg_std_error(&je);
    jpeg_create_compress(&cc);
    cc.in_color_space = JCS_RGB;
    cc.input_components = 3;
    jpeg_set_defaults(&cc);
    JHUFF_TBL *h = ac ? cc.ac_huff_tbl_ptrs[index] : cc.dc_huff_tbl_ptrs[index];
    memcpy(t->counts, h->bits, 17);
    memcpy(t->values, h->huffval, 256);
    t->present = 1;
    build_huff(t);
    jpeg_destroy_compress(&cc);
}

// Walks the markers; for baseline files calls `scan` for every SOS. Sets f->kind.
typedef const uint8_t *(*scan_fn)(jfile *f, const scan_info *s, const uint8_t *p, void *ctx);

static int walk(jfile *f, scan_fn scan, void *ctx) {
    const uint8_t *p = f->data, *end = f->data + f->size;
    if (f->size < 4 || p[0] != 0xFF || p[1] != 0xD8) {
        f->kind = 3;
        return -1;
    }
    p += 2;
    int have_sof = 0;
    f->dri = 0;
    while (p + 4 <= end) {
        if (p[0] != 0xFF) {
            p++;  // junk between segments: libjpeg warns and skips it too
            continue;
        }
        int m = p[1];
        if (m == 0xFF) {
            p++;
            continue;
        }
        if (m == 0xD9) break;
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) {
            p += 2;
            continue;
        }
        int len = be16(p + 2);
        if (len < 2 || p + 2 + len > end) return -1;
        const uint8_t *body = p + 4;
        if (m == 0xC0 || m == 0xC1) {
            if (have_sof || parse_sof(f, body, len - 2) != 0) return -1;
            have_sof = 1;
            f->kind = 0;
        } else if (m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE) {
            f->kind = 1;
            return 0;
        } else if ((m >= 0xC3 && m <= 0xCF) && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            f->kind = 2;
            return 0;
        } else if (m == 0xC4) {
            if (parse_dht(f, body, len - 2) != 0) return -1;
        } else if (m == 0xDD) {
            if (len < 4) return -1;
            f->dri = be16(body);
            if (f->dri) f->dri_any = f->dri;
        } else if (m == 0xDA) {
            if (!have_sof) return -1;
            scan_info s = {.ns = body[0]};
            if (s.ns < 1 || s.ns > 4 || len < 6 + 2 * s.ns) return -1;
            for (int i = 0; i < s.ns; i++) {
                int id = body[1 + 2 * i], ci = -1;
                // Motion-JPEG leaves DHT out: libjpeg then uses the standard tables 0 and 1.
                int td = body[2 + 2 * i] >> 4, ta = body[2 + 2 * i] & 15;
                if (td < 2 && !f->dc[td].present) std_table(&f->dc[td], 0, td);
                if (ta < 2 && !f->ac[ta].present) std_table(&f->ac[ta], 1, ta);
                for (int j = 0; j < f->ncomp; j++) {
                    if (f->c[j].id == id) ci = j;
                }
                if (ci < 0) return -1;
                s.comp[i] = ci;
                f->c[ci].td = body[2 + 2 * i] >> 4;
                f->c[ci].ta = body[2 + 2 * i] & 15;
                if (f->c[ci].td > 3 || f->c[ci].ta > 3 || !f->dc[f->c[ci].td].present || !f->ac[f->c[ci].ta].present)
                    return -1;
            }
            f->scans++;
            const uint8_t *after = scan(f, &s, p + 2 + len, ctx);
            if (after == NULL) return -1;
            p = after;
            continue;
        }
        p += 2 + len;
    }
    return have_sof ? 0 : -1;
}

static const uint8_t *scan_ref(jfile *f, const scan_info *s, const uint8_t *p, void *ctx) {
    return decode_scan_ref(f, s, p, (stats *)ctx);
}

static const uint8_t *scan_none(jfile *f, const scan_info *s, const uint8_t *p, void *ctx) {
    (void)f;
    (void)s;
    (void)p;
    (void)ctx;
    return NULL;  // -l: stop at the first scan
}

// MARK: - libjpeg cross-checks

// Compares `fast ? dc_fast : dc` with libjpeg's coefficients; returns mismatching blocks, -1 if
// libjpeg fails.
static long compare_with_libjpeg(jfile *f, int fast, long *checked) {
    struct jpeg_decompress_struct cinfo;
    peer_jpeg_error jerr;
    cinfo.err = jpeg_std_error(&jerr.pub);
    jerr.pub.error_exit = peer_jpeg_exit;
    jerr.pub.emit_message = peer_jpeg_silent;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, f->data, (unsigned long)f->size);
    jpeg_read_header(&cinfo, TRUE);
    jvirt_barray_ptr *coefs = jpeg_read_coefficients(&cinfo);
    long bad = 0;
    *checked = 0;
    for (int ci = 0; ci < cinfo.num_components && ci < f->ncomp; ci++) {
        jpeg_component_info *ji = &cinfo.comp_info[ci];
        component *c = &f->c[ci];
        if ((int)ji->width_in_blocks != c->wblocks || (int)ji->height_in_blocks != c->hblocks) {
            bad += (long)c->wblocks * c->hblocks;
            continue;
        }
        int *mine = fast ? c->dc_fast : c->dc;
        for (int by = 0; by < c->hblocks; by++) {
            JBLOCKARRAY row = (*cinfo.mem->access_virt_barray)((j_common_ptr)&cinfo, coefs[ci], (JDIMENSION)by, 1, FALSE);
            for (int bx = 0; bx < c->wblocks; bx++) {
                (*checked)++;
                if (row[0][bx][0] != (JCOEF)mine[by * c->dcw + bx]) bad++;  // libjpeg keeps 16 bits
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return bad;
}

// libjpeg-turbo's own 1/8 decode of the same bytes, RGB out.
static int libjpeg_18(jfile *f) { return peer_jpeg18(f->data, f->size, 1); }

// MARK: - DC-only skip decoder (the prototype)

typedef struct {
    const uint8_t *p, *end;
    uint64_t buf;
    int bits;
    int at_marker;
} fastreader;

static inline int no_ff(uint64_t w) {
    uint64_t x = ~w;  // a 0xFF byte of w is a zero byte of x
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) == 0;
}

static inline void fr_fill(fastreader *b) {
    if (b->end - b->p >= 8) {
        uint64_t w;
        memcpy(&w, b->p, 8);
        if (no_ff(w)) {
            b->buf |= __builtin_bswap64(w) >> b->bits;
            b->p += (63 - b->bits) >> 3;
            b->bits |= 56;
            return;
        }
    }
    while (b->bits <= 56) {
        unsigned c = 0;
        if (!b->at_marker && b->p < b->end) {
            c = *b->p;
            if (c == 0xFF) {
                unsigned next = b->p + 1 < b->end ? b->p[1] : 0xD9;
                if (next == 0) {
                    b->p += 2;
                } else {
                    b->at_marker = 1;
                    c = 0;
                }
            } else {
                b->p++;
            }
        }
        // OR, not assign: a fast refill may already have put these very bits below `bits`.
        b->buf |= (uint64_t)c << (56 - b->bits);
        b->bits += 8;
    }
}

// AC skip-table entry: total bits (code+magnitude of every symbol taken), total advance of k
// over the non-EOB symbols (run+1, 16 for ZRL), whether the last symbol is EOB, and the first symbol's own bits and advance (the fallback when
// the whole entry would run past coefficient 63). 0: code longer than the table.
#define E_BITS(e) ((e)&0xFF)
#define E_ADV(e) (((e) >> 8) & 0x7F)
#define E_EOB(e) (((e) >> 15) & 1)
#define E_BITS1(e) (((e) >> 16) & 0xFF)
#define E_ADV1(e) (((e) >> 24) & 0x7F)

// One symbol at the top of a `width`-bit window: its code length (0: longer than the window),
// code+magnitude bits, advance of k (0 for EOB) and whether it is EOB.
typedef struct {
    uint8_t code, bits, adv, eob;
} one_symbol;

typedef struct {
    int width;
    uint32_t *ac[4];
    one_symbol *single;
    uint16_t dc[4][1 << 9];
} skip_tables;

// Fills single[] (2^width entries) by enumerating the codes, then derives each multi-symbol
// entry from single[] lookups at the shifted window (a later code counts only when all of its
// bits are inside the window; its magnitude may run past it).
static void build_skip_table(uint32_t *table, one_symbol *single, const huff_table *t, int width, int maxsyms) {
    uint32_t size = 1u << width, mask = size - 1;
    memset(single, 0, sizeof(one_symbol) * size);
    int code = 0, k = 0;
    for (int len = 1; len <= 16; len++) {
        for (int i = 0; i < t->counts[len]; i++, code++, k++) {
            if (len > width) continue;
            int sym = t->values[k], r = sym >> 4, sz = sym & 15, eob = sz == 0 && r != 15;
            one_symbol e = {(uint8_t)len, (uint8_t)(len + sz), (uint8_t)(eob ? 0 : sz == 0 ? 16 : r + 1), (uint8_t)eob};
            uint32_t first = (uint32_t)code << (width - len), n = 1u << (width - len);
            for (uint32_t j = 0; j < n; j++) single[first + j] = e;
        }
        code <<= 1;
    }
    for (uint32_t w = 0; w < size; w++) {
        one_symbol e = single[w];
        if (e.code == 0) {
            table[w] = 0;
            continue;
        }
        int used = e.bits, adv = e.adv, eob = e.eob;
        for (int n = 1; n < maxsyms && !eob && used < width; n++) {
            one_symbol e2 = single[(w << used) & mask];
            if (e2.code == 0 || e2.code > width - used) break;
            used += e2.bits;
            adv += e2.adv;
            eob = e2.eob;
        }
        table[w] = (uint32_t)used | (uint32_t)adv << 8 | (uint32_t)eob << 15 | (uint32_t)e.bits << 16 |
                   (uint32_t)e.adv << 24;
    }
}

static void build_skip_tables(jfile *f, skip_tables *st, int width, int maxsyms) {
    st->width = width;
    for (int i = 0; i < 4; i++) {
        if (f->ac[i].present) {
            if (st->ac[i] == NULL) st->ac[i] = malloc(sizeof(uint32_t) << 16);
            if (st->single == NULL) st->single = malloc(sizeof(one_symbol) << 16);
            build_skip_table(st->ac[i], st->single, &f->ac[i], width, maxsyms);
        }
        if (f->dc[i].present) memcpy(st->dc[i], f->dc[i].look, sizeof(st->dc[i]));
    }
}

static inline int slow_symbol(fastreader *b, const huff_table *t, int *len) {
    unsigned code = (unsigned)(b->buf >> 48);
    for (int l = 1; l <= 16; l++) {
        int c = (int)(code >> (16 - l));
        if (t->counts[l] && c <= t->maxcode[l] && c >= t->mincode[l]) {
            *len = l;
            return t->values[t->valptr[l] + c - t->mincode[l]];
        }
    }
    *len = 0;
    return -1;
}

typedef struct {
    skip_tables *tables;
} fast_ctx;

static const uint8_t *decode_scan_fast(jfile *f, const scan_info *s, const uint8_t *p, void *ctx) {
    skip_tables *tb = ((fast_ctx *)ctx)->tables;
    const int width = tb->width;
    fastreader b = {.p = p, .end = f->data + f->size};
    int mcux, mcuy;
    mcu_geometry(f, s, &mcux, &mcuy);
    int pred[4] = {0};
    long done = 0;
    for (int my = 0; my < mcuy; my++) {
        for (int mx = 0; mx < mcux; mx++) {
            if (f->dri && done > 0 && done % f->dri == 0) {
                b.p = restart_at(b.p, b.end);
                b.buf = 0;
                b.bits = 0;
                b.at_marker = 0;
                memset(pred, 0, sizeof(pred));
            }
            for (int ci = 0; ci < s->ns; ci++) {
                component *c = &f->c[s->comp[ci]];
                const huff_table *dct = &f->dc[c->td], *act = &f->ac[c->ta];
                const uint16_t *dclook = tb->dc[c->td];
                const uint32_t *ac = tb->ac[c->ta];
                int bh = s->ns == 1 ? 1 : c->h, bv = s->ns == 1 ? 1 : c->v;
                for (int yy = 0; yy < bv; yy++) {
                    int *row = c->dc_fast + (s->ns == 1 ? my : my * c->v + yy) * c->dcw;
                    for (int xx = 0; xx < bh; xx++) {
                        if (b.bits < 32) fr_fill(&b);
                        unsigned e = dclook[b.buf >> 55];
                        int len, sym;
                        if (e) {
                            len = e >> 8;
                            sym = e & 0xFF;
                        } else {
                            sym = slow_symbol(&b, dct, &len);
                            if (sym < 0 || sym > 11) return NULL;
                        }
                        b.buf <<= len;
                        b.bits -= len;
                        int diff = sym ? extend((unsigned)(b.buf >> (64 - sym)), sym) : 0;
                        b.buf <<= sym;
                        b.bits -= sym;
                        pred[ci] += diff;
                        row[s->ns == 1 ? mx : mx * c->h + xx] = pred[ci];
                        for (int k = 1;;) {
                            if (b.bits < 32) fr_fill(&b);
                            uint32_t a = ac[b.buf >> (64 - width)];
                            if (a) {
                                int nk = k + (int)E_ADV(a);
                                // Whole entry: its symbols stay inside the block (an EOB must
                                // come before coefficient 64 is passed).
                                if (nk < 64 || (nk == 64 && !E_EOB(a))) {
                                    b.buf <<= E_BITS(a);
                                    b.bits -= (int)E_BITS(a);
                                    if (E_EOB(a) || nk == 64) break;
                                    k = nk;
                                    continue;
                                }
                                nk = k + (int)E_ADV1(a);  // only the first symbol belongs here
                                if (nk > 64) return NULL;  // corrupt: past coefficient 63
                                b.buf <<= E_BITS1(a);
                                b.bits -= (int)E_BITS1(a);
                                if (nk == 64) break;
                                k = nk;
                                continue;
                            }
                            int rs = slow_symbol(&b, act, &len);
                            if (rs < 0) return NULL;
                            int r = rs >> 4, sz = rs & 15;
                            b.buf <<= len;
                            b.bits -= len;
                            if (b.bits < 32) fr_fill(&b);
                            b.buf <<= sz;
                            b.bits -= sz;
                            if (sz == 0 && r != 15) break;
                            k += sz == 0 ? 16 : r + 1;
                            if (k >= 64) break;
                        }
                    }
                }
            }
            done++;
        }
    }
    const uint8_t *q = b.p;
    while (q + 1 < b.end && !(q[0] == 0xFF && q[1] != 0 && !(q[1] >= 0xD0 && q[1] <= 0xD7) && q[1] != 0xFF)) q++;
    return q;
}

// MARK: - Main

static const char *subsampling(const jfile *f) {
    if (f->ncomp == 1) return "gray";
    if (f->ncomp != 3) return "other";
    const component *y = &f->c[0], *cb = &f->c[1], *cr = &f->c[2];
    if (cb->h != cr->h || cb->v != cr->v || cb->h != 1 || cb->v != 1) return "other";
    if (y->h == 1 && y->v == 1) return "4:4:4";
    if (y->h == 2 && y->v == 1) return "4:2:2";
    if (y->h == 2 && y->v == 2) return "4:2:0";
    if (y->h == 1 && y->v == 2) return "4:4:0";
    return "other";
}

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

#define NSHAPES 6
static const int shape_width[NSHAPES] = {9, 12, 14, 12, 14, 16};
static const int shape_syms[NSHAPES] = {1, 1, 2, 3, 3, 3};

int main(int argc, char **argv) {
    int rounds = 0, list = 0, first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-t") == 0 && first + 1 < argc) {
            rounds = atoi(argv[first + 1]);
            first += 2;
        } else if (strcmp(argv[first], "-l") == 0) {
            list = 1;
            first++;
        } else {
            fprintf(stderr, "usage: jpeg-symbol-stats [-t ROUNDS] [-l] FILE...\n");
            return 2;
        }
    }
    int n = argc - first;
    jfile *files = calloc((size_t)n + 1, sizeof(jfile));
    stats total = {0};
    long mismatched_files = 0, baseline = 0, with_dri = 0;
    skip_tables tables = {0};
    double *t_lib = calloc((size_t)n * (rounds ? rounds : 1), sizeof(double));
    double *t_fast[NSHAPES];
    double *t_build[NSHAPES];
    for (int k = 0; k < NSHAPES; k++) {
        t_fast[k] = calloc((size_t)n * (rounds ? rounds : 1), sizeof(double));
        t_build[k] = calloc((size_t)n * (rounds ? rounds : 1), sizeof(double));
    }
    if (!list) {
        printf("file\tsize\tWxH\tsampling\tDRI\tscans\tblocks\tAC/blk\tAC>8%%\tDC>8%%\tAC<=8%%\tDCmismatch\n");
    }
    for (int i = 0; i < n; i++) {
        jfile *f = &files[i];
        f->path = argv[first + i];
        f->data = read_all(f->path, &f->size);
        f->kind = 3;
        if (f->data == NULL) {
            if (list) printf("unreadable\t%s\n", f->path);
            continue;
        }
        if (list) {
            f->kind = 2;
            walk(f, scan_none, NULL);
            static const char *kinds[] = {"baseline", "progressive", "other", "unreadable"};
            printf("%s\t%s\n", kinds[f->kind], f->path);
            free_file(f);
            continue;
        }
        stats st = {0};
        f->kind = 2;
        int rc = walk(f, scan_ref, &st);
        if (f->kind != 0) {
            printf("%s\t%zu\t-\t-\t-\t-\t-\t-\t-\t-\t-\t%s\n", f->path, f->size, f->kind == 1 ? "progressive" : "skipped");
            continue;
        }
        if (rc != 0) {
            printf("%s\t%zu\t-\t-\t-\t-\t-\t-\t-\t-\t-\tdecode-error\n", f->path, f->size);
            continue;
        }
        baseline++;
        with_dri += f->dri_any != 0;
        long checked = 0, bad = compare_with_libjpeg(f, 0, &checked);
        if (bad != 0) mismatched_files++;
        printf("%s\t%zu\t%dx%d\t%s\t%d\t%d\t%llu\t%.2f\t%.2f\t%.2f\t%.1f\t%ld/%ld%s\n", f->path, f->size, f->width,
               f->height, subsampling(f), f->dri_any, f->scans, (unsigned long long)st.blocks,
               (double)st.ac_syms_all / (double)st.blocks, pct(st.ac_long, st.ac_codes), pct(st.dc_long, st.dc_codes),
               pct(st.ac_tot[0], st.ac_codes), bad, checked, st.skipped_blocks ? " (data ran out)" : "");
        total.blocks += st.blocks;
        total.dc_codes += st.dc_codes;
        total.dc_long += st.dc_long;
        total.ac_codes += st.ac_codes;
        total.ac_long += st.ac_long;
        total.eobs += st.eobs;
        total.ac_syms_all += st.ac_syms_all;
        total.pairs += st.pairs;
        total.triples += st.triples;
        for (int k = 0; k < 4; k++) {
            total.dc_tot[k] += st.dc_tot[k];
            total.ac_tot[k] += st.ac_tot[k];
        }
        for (int k = 0; k < 3; k++) {
            total.pair_fit[k] += st.pair_fit[k];
            total.triple_fit[k] += st.triple_fit[k];
            total.greedy_lookups[0][k] += st.greedy_lookups[0][k];
            total.greedy_lookups[1][k] += st.greedy_lookups[1][k];
        }
        // The skip decoders: each must give the reference DC values.
        if (rounds > 0) {
            for (int sh = 0; sh < NSHAPES; sh++) {
                for (int c = 0; c < f->ncomp; c++) memset(f->c[c].dc_fast, 0, sizeof(int) * f->c[c].dcw * f->c[c].dch);
                build_skip_tables(f, &tables, shape_width[sh], shape_syms[sh]);
                fast_ctx ctx = {&tables};
                if (walk(f, decode_scan_fast, &ctx) != 0) {
                    printf("#\tskip decoder %d failed on %s\n", sh, f->path);
                    continue;
                }
                long fc = 0, fbad = compare_with_libjpeg(f, 1, &fc);
                if (fbad != 0) printf("#\tskip decoder %d: %ld/%ld DC mismatches in %s\n", sh, fbad, fc, f->path);
            }
        }
    }
    if (list) return 0;
    // Timing: interleaved rounds over the baseline files.
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            jfile *f = &files[i];
            if (f->kind != 0 || f->data == NULL) continue;
            double t0 = cpu_ms();
            libjpeg_18(f);
            t_lib[(size_t)i * rounds + r] = cpu_ms() - t0;
            for (int sh = 0; sh < NSHAPES; sh++) {
                t0 = cpu_ms();
                // Table building is part of the cost (one table set per file).
                build_skip_tables(f, &tables, shape_width[sh], shape_syms[sh]);
                double t1 = cpu_ms();
                fast_ctx ctx = {&tables};
                walk(f, decode_scan_fast, &ctx);
                t_fast[sh][(size_t)i * rounds + r] = cpu_ms() - t0;
                t_build[sh][(size_t)i * rounds + r] = t1 - t0;
            }
        }
    }
    printf("\n# %ld baseline files, %ld with DRI, %ld with DC mismatches against jpeg_read_coefficients\n", baseline,
           with_dri, mismatched_files);
    printf("# blocks %llu, AC symbols/block %.2f (incl. EOB), %.2f (without EOB)\n", (unsigned long long)total.blocks,
           (double)total.ac_syms_all / (double)total.blocks,
           (double)(total.ac_syms_all - total.eobs) / (double)total.blocks);
    printf("# codes longer than 8 bits: AC %.2f%%, DC %.2f%%\n", pct(total.ac_long, total.ac_codes),
           pct(total.dc_long, total.dc_codes));
    printf("# code+magnitude <=8 / <=12 / <=14 / <=16: AC %.1f / %.1f / %.1f / %.1f %%; DC %.1f / %.1f / %.1f / %.1f %%\n",
           pct(total.ac_tot[0], total.ac_codes), pct(total.ac_tot[1], total.ac_codes), pct(total.ac_tot[2], total.ac_codes),
           pct(total.ac_tot[3], total.ac_codes), pct(total.dc_tot[0], total.dc_codes), pct(total.dc_tot[1], total.dc_codes),
           pct(total.dc_tot[2], total.dc_codes), pct(total.dc_tot[3], total.dc_codes));
    printf("# consecutive AC symbols fitting in 12 / 14 / 16 bits: pairs %.1f / %.1f / %.1f %%, triples %.1f / %.1f / %.1f %%\n",
           pct(total.pair_fit[0], total.pairs), pct(total.pair_fit[1], total.pairs), pct(total.pair_fit[2], total.pairs),
           pct(total.triple_fit[0], total.triples), pct(total.triple_fit[1], total.triples),
           pct(total.triple_fit[2], total.triples));
    for (int m = 0; m < 2; m++) {
        printf("# greedy up-to-%d-symbol lookups: AC symbols per lookup at 12 / 14 / 16 bits: %.2f / %.2f / %.2f\n", m + 2,
               (double)total.ac_syms_all / (double)total.greedy_lookups[m][0],
               (double)total.ac_syms_all / (double)total.greedy_lookups[m][1],
               (double)total.ac_syms_all / (double)total.greedy_lookups[m][2]);
    }
    if (rounds > 0) {
        printf("\n# timing, median of %d rounds, CPU ms: T, file, sampling, libjpeg 1/8", rounds);
        for (int sh = 0; sh < NSHAPES; sh++) printf(", skip x%d/%d", shape_syms[sh], shape_width[sh]);
        printf("\n");
        // [0]: all files; [1]: gray and 4:4:4 only (where DC alone is libjpeg's 1/8 output)
        double sum_lib[2] = {0}, sum_fast[2][NSHAPES] = {{0}}, sum_build[NSHAPES] = {0};
        for (int i = 0; i < n; i++) {
            if (files[i].kind != 0 || files[i].data == NULL) continue;
            const char *ss = subsampling(&files[i]);
            int dc_only = strcmp(ss, "gray") == 0 || strcmp(ss, "4:4:4") == 0;
            double l = median(t_lib + (size_t)i * rounds, rounds);
            printf("T\t%s\t%s\t%.2f", files[i].path, ss, l);
            sum_lib[0] += l;
            if (dc_only) sum_lib[1] += l;
            for (int sh = 0; sh < NSHAPES; sh++) {
                double fs = median(t_fast[sh] + (size_t)i * rounds, rounds);
                sum_fast[0][sh] += fs;
                if (dc_only) sum_fast[1][sh] += fs;
                sum_build[sh] += median(t_build[sh] + (size_t)i * rounds, rounds);
                printf("\t%.2f", fs);
            }
            printf("\n");
        }
        for (int g = 0; g < 2; g++) {
            printf("# total %s (sum of per-file medians): libjpeg 1/8 %.1f ms", g ? "gray+4:4:4" : "all", sum_lib[g]);
            for (int sh = 0; sh < NSHAPES; sh++) {
                printf("; x%d/%d %.1f (%.2fx)", shape_syms[sh], shape_width[sh], sum_fast[g][sh],
                       sum_lib[g] / sum_fast[g][sh]);
            }
            printf("\n");
        }
        printf("# of which table building (all files)");
        for (int sh = 0; sh < NSHAPES; sh++) printf("; x%d/%d %.1f ms", shape_syms[sh], shape_width[sh], sum_build[sh]);
        printf("\n");
    }
    return mismatched_files ? 1 : 0;
}
