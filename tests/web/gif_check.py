"""A GIF file read with Python's standard library only (the page test's check of the
browser's GIF export, page_test.py): its header, logical screen, loop extension, each
image's rectangle, and the colours of the first image (LZW-decoded, as a viewer would).

    gif = read_gif(data)   ->  Gif(version, width, height, loops, images)
    colours_of(gif.images[0])  ->  the set of (r, g, b) its pixels show
"""
import collections

Image = collections.namedtuple("Image", "x y width height palette min_code_size data")
Gif = collections.namedtuple("Gif", "version width height loops images")


def _sub_blocks(data, at):
    """The bytes of the sub-blocks starting at `at` (up to the 0 terminator), and the
    offset after it."""
    out = bytearray()
    while True:
        size = data[at]
        at += 1
        if size == 0:
            return bytes(out), at
        out += data[at:at + size]
        at += size


def _colour_table(data, at, flags):
    """The colour table after a descriptor whose packed byte is `flags` (or None)."""
    if not flags & 0x80:
        return None, at
    count = 2 << (flags & 7)
    table = [tuple(data[at + 3 * i:at + 3 * i + 3]) for i in range(count)]
    return table, at + 3 * count


def read_gif(data):
    """The file's blocks; ValueError when it is not a well-formed GIF."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("no GIF header: %r" % data[:6])
    width, height = int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    global_table, at = _colour_table(data, 13, data[10])
    images, loops = [], False
    while at < len(data):
        kind = data[at]
        if kind == 0x3B:  # the trailer
            return Gif(data[:6].decode(), width, height, loops, images)
        if kind == 0x21:  # an extension: label, then sub-blocks
            body, after = _sub_blocks(data, at + 2)
            loops |= data[at + 1] == 0xFF and body.startswith(b"NETSCAPE2.0")
            at = after
        elif kind == 0x2C:  # an image: descriptor, its colour table, LZW code size, sub-blocks
            x, y, w, h = (int.from_bytes(data[at + 1 + 2 * i:at + 3 + 2 * i], "little") for i in range(4))
            table, at = _colour_table(data, at + 10, data[at + 9])
            body, after = _sub_blocks(data, at + 1)
            images.append(Image(x, y, w, h, table or global_table, data[at], body))
            at = after
        else:
            raise ValueError("unknown block 0x%02x at byte %d" % (kind, at))
    raise ValueError("no trailer: the file is cut short")


def _indices(min_code_size, data, count):
    """GIF's variable-width LZW: the first `count` palette indices of an image."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    table = [bytes([i]) for i in range(clear)] + [b"", b""]
    size, previous = min_code_size + 1, None
    out, bits, held = bytearray(), 0, 0
    for byte in data:
        bits |= byte << held
        held += 8
        while held >= size:
            code, bits, held = bits & ((1 << size) - 1), bits >> size, held - size
            if code == clear:
                table, size, previous = table[:clear + 2], min_code_size + 1, None
                continue
            if code == end or len(out) >= count:
                return bytes(out[:count])
            if code < len(table):
                entry = table[code]
                if previous is not None and len(table) < 4096:
                    table.append(previous + entry[:1])
            elif previous is not None and code == len(table):
                entry = previous + previous[:1]
                table.append(entry)
            else:
                raise ValueError("LZW code %d out of its table (%d entries)" % (code, len(table)))
            out += entry
            previous = entry
            if len(table) == 1 << size and size < 12:
                size += 1
    return bytes(out[:count])


def colours_of(image):
    """The (r, g, b) colours that the image's pixels show."""
    indices = _indices(image.min_code_size, image.data, image.width * image.height)
    if len(indices) < image.width * image.height:
        raise ValueError("the image holds %d of its %d pixels" % (len(indices), image.width * image.height))
    return {image.palette[i] for i in set(indices)}
