/**
 * A small PNG reader for render tests: 8-bit RGB or RGBA, not interlaced (what LibreOffice's
 * export writes). Enough to count the pixels of a colour; anything else is refused loudly.
 */
import { inflateSync } from 'node:zlib';

export interface Png {
  width: number;
  height: number;
  /** bytes per pixel: 3 (RGB) or 4 (RGBA) */
  channels: number;
  /** unfiltered scanlines, `width * channels` bytes each */
  pixels: Buffer;
}

const SIGNATURE = '89504e470d0a1a0a';

export function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).toString('hex') === SIGNATURE;
}

export function decodePng(bytes: Buffer): Png {
  if (!isPng(bytes)) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colorType = body[9];
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || body[12] !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${body[12]}`);
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y === 0 ? Buffer.alloc(stride) : pixels.subarray((y - 1) * stride, y * stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (out[x - channels] as number) : 0;
      const b = up[x] as number;
      const c = x >= channels ? (up[x - channels] as number) : 0;
      const v = line[x] as number;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter}`);
      out[x] = (v + predicted) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many pixels are within `tolerance` of the colour `RRGGBB` on each channel. */
export function countColor(png: Png, rgb: string, tolerance = 6): number {
  const r = parseInt(rgb.slice(0, 2), 16);
  const g = parseInt(rgb.slice(2, 4), 16);
  const b = parseInt(rgb.slice(4, 6), 16);
  let n = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    if (Math.abs((png.pixels[i] as number) - r) <= tolerance && Math.abs((png.pixels[i + 1] as number) - g) <= tolerance && Math.abs((png.pixels[i + 2] as number) - b) <= tolerance) n++;
  }
  return n;
}
