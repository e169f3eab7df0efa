// SPDX-License-Identifier: Apache-2.0
// png_text.c: the tEXt chunks of a PNG, read without decoding pixels (see CThumbKit.h). Writing
// them is part of tk_png_encode_text in png_shim.c.
#include "CThumbKit.h"
#include "png_common.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Text chunks (low-level API)

typedef struct {
    tk_png_text **out;
    size_t *count;
} tk_png_text_request;

static int tk_png_take_text(png_structp png, png_infop info, void *context, char err[TK_ERR_LEN]) {
    tk_png_text_request *request = context;
    png_textp text = NULL;
    int count = png_get_text(png, info, &text, NULL);
    if (count <= 0 || text == NULL) return 0;
    // One block: the entries, then every key and value, NUL-terminated; freed with one tk_free.
    size_t bytes = (size_t)count * sizeof(tk_png_text);
    for (int i = 0; i < count; i++) bytes += strlen(text[i].key) + 1 + text[i].text_length + 1;
    uint8_t *block = malloc(bytes);
    if (block == NULL) {
        tk_copy_message(err, "out of memory");
        return -1;
    }
    tk_png_text *entries = (tk_png_text *)block;
    char *cursor = (char *)(entries + count);
    for (int i = 0; i < count; i++) {
        size_t key_length = strlen(text[i].key);
        memcpy(cursor, text[i].key, key_length + 1);
        entries[i].key = cursor;
        cursor += key_length + 1;
        if (text[i].text_length > 0) memcpy(cursor, text[i].text, text[i].text_length);
        cursor[text[i].text_length] = '\0';
        entries[i].value = cursor;
        entries[i].value_length = text[i].text_length;
        cursor += text[i].text_length + 1;
    }
    *request->out = entries;
    *request->count = (size_t)count;
    return 0;
}

int tk_png_read_text(const uint8_t *data, size_t size, tk_png_text **out, size_t *count,
                     char err[TK_ERR_LEN]) {
    tk_copy_message(err, "");
    if (out == NULL || count == NULL) {
        tk_copy_message(err, "Not a PNG file");
        return -1;
    }
    *out = NULL;
    *count = 0;
    // Only tEXt chunks before the first IDAT are read (a thumbnail writer puts them there);
    // compressed and international text are skipped unread.
    static const png_byte skipped[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0"
                                      "pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0sTER\0tIME\0tRNS\0zTXt\0";
    tk_png_text_request request = {.out = out, .count = count};
    return tk_png_read_info(data, size, skipped, (int)(sizeof(skipped) / 5), tk_png_take_text, &request, err);
}
