// Counts o200k_base tokens (the GPT-4o family's encoding) of each line of stdin, one count
// per output line. The ranks ship inside js-tiktoken: nothing is downloaded.
import fs from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

const encoding = new Tiktoken(o200k);
for (const line of fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  console.log(encoding.encode(JSON.parse(line)).length);
}
