// roaring is a CommonJS native addon: Node's ESM loader cannot name its exports, so they are taken
// from the default export here, once, for the modules that use bitmaps.
import roaring from 'roaring';

export const { RoaringBitmap32 } = roaring;
export type RoaringBitmap32 = InstanceType<typeof roaring.RoaringBitmap32>;
