-- What the receiver told us about an attempt beyond its status and body: an Eventlog incoming
-- hook that stored a delivered event without notify (the loop rule, decision 175) says so in a
-- response header, and the attempt log keeps that sentence here. Null for every other receiver.
ALTER TABLE delivery_attempts ADD COLUMN note text;
