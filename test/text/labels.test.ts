import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelKind } from '../../src/text/labels.js';
import { words } from '../../src/text/tokenize.js';

const kind = (t: string) => labelKind(t, words(t));

test('bylines and date lines are labels, in the languages Intl names months for', () => {
  for (const t of [
    'By Martha Keel',
    'By Martha Keel - 11/18/19 11:04 PM EST',
    'Published November 18, 2019 at 11:04 PM',
    'Updated 2019-11-18 09:30',
    'Publicado el 18 de noviembre de 2019',
    'Veröffentlicht am 18. November 2019, 09:30 Uhr',
    'Von Martha Keel, 18.11.2019',
    'Publié le 18 novembre 2019 à 9h30',
  ]) assert.equal(kind(t), 'byline', t);
});

test('a sentence that holds a date or begins with "By" is text', () => {
  for (const t of [
    'On January 23, 1998, the keeper made two announcements to the village.',
    'He died in March 2019.',
    'By the time the boat came in, the keeper was asleep.',
    'By Order of the Harbour Board, the pier is closed until the storm has passed.',
    'The lamp was first lit on 18/11/1898 and has burned every night since then without fail.',
    'Version 4.2.3 of the chart came out in May.',
  ]) assert.equal(kind(t), undefined, t);
});

test('rights lines and lines to type are labels', () => {
  assert.equal(kind('The contents of this site are ©2019 Harbour Gazette Publishing, a part of Coast News.'), 'rights');
  assert.equal(kind('Copyright (c) 2021 Harbour Gazette. All rights reserved.'), 'rights');
  assert.equal(kind('Todos os direitos reservados à Gazeta do Porto.'), 'rights');
  assert.equal(kind('$ sudo apt-get install lighthouse'), 'command');
  assert.equal(kind('deb https://archive.example.org/debian bookworm main'), 'command');
  assert.equal(kind('The keeper typed the command and waited for the lamp to answer her from the tower.'), undefined);
});
