// Channel destinations in the browser at desktop size (1440×900); the phone's is channelsPhone.test.ts.
import { channelsSuite } from './channelsSuite.ts';

channelsSuite('desktop', { width: 1440, height: 900 });
