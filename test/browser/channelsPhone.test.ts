// Channel destinations in the browser at phone size (390×844); the desktop's is channels.test.ts.
import { channelsSuite } from './channelsSuite.ts';

channelsSuite('phone', { width: 390, height: 844 });
