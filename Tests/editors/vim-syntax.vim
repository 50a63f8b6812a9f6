" Run by Scripts/check-editors: `vim -es` with Editors/vim on the runtime path opens
" Tests/editors/syntax-sample.pipe; each row names a line, a word on it (its first occurrence
" from the given column) and the syntax group expected under the word's first character.
let s:rows = [
      \ [2, 'let', 1, 'pipeLet'],
      \ [2, 'ticks', 1, 'pipeBinding'],
      \ [2, 'interval', 1, 'pipeSource'],
      \ [2, '100ms', 1, 'pipeDuration'],
      \ [2, '|', 1, 'pipePipe'],
      \ [2, 'take', 1, 'pipeOperator'],
      \ [2, '3', 1, 'pipeNumber'],
      \ [3, 'ticks', 1, ''],
      \ [3, 'scan', 1, 'pipeOperator'],
      \ [3, '$1', 1, 'pipeClosureArgument'],
      \ [3, 'sink', 1, 'pipeOperator'],
      \ [3, '&', 1, 'pipeBackground'],
      \ [4, 'just', 1, 'pipeSource'],
      \ [4, 'x', 1, 'pipeString'],
      \ [4, '\(', 1, 'pipeInterpolationDelimiter'],
      \ [4, '$0', 1, 'pipeClosureArgument'],
      \ [4, '2', 1, 'pipeNumber'],
      \ [4, 'y', 1, 'pipeString'],
      \ [4, '\t', 1, 'pipeEscape'],
      \ [4, 'map', 1, 'pipeOperator'],
      \ [5, 'marble', 1, 'pipeSource'],
      \ [5, '-a', 1, 'pipeMarbleFrame'],
      \ [5, 'a-', 1, 'pipeMarble'],
      \ [5, '(b', 1, 'pipeMarbleGroup'],
      \ [5, '|)', 1, 'pipeMarbleEnd'],
      \ [5, '#"', 1, 'pipeMarbleEnd'],
      \ [5, 'frame', 1, 'pipeLabel'],
      \ [5, '10ms', 1, 'pipeDuration'],
      \ [6, 'expect', 1, 'pipeExpect'],
      \ [6, 'marbles', 1, 'pipeCheck'],
      \ [6, "'aa'", 1, 'pipeMarbleQuoted'],
      \ [7, 'values', 1, 'pipeCheck'],
      \ [7, '2.5', 1, 'pipeNumber'],
      \ [8, 'todo', 1, 'pipeTodo'],
      \ [9, ':trace', 1, 'pipeCommand'],
      \ [10, '.send', 1, 'pipeSubjectCommand'],
      \ [10, 'true', 1, 'pipeConstant'],
      \ [10, '||', 1, 'pipeLogical'],
      \ [10, 'nil', 1, 'pipeConstant'],
      \ [11, '...', 1, 'pipeRange'],
      \ [11, 'flatMap', 1, 'pipeOperator'],
      \ [11, 'maxPublishers', 1, 'pipeLabel'],
      \ [11, 'just', 1, 'pipeSource'],
      \ [11, '#', 1, 'pipeComment'],
      \ [11, 'quotes', 1, 'pipeComment'],
      \ [12, 'contains', 1, 'pipeOperator'],
      \ ]

let s:out = []
let s:failed = 0
if &filetype !=# 'pipe'
  call add(s:out, 'FAIL: filetype is "' . &filetype . '", not pipe (ftdetect)')
  let s:failed = 1
endif
for [s:line, s:word, s:from, s:group] in s:rows
  let s:col = stridx(getline(s:line), s:word, s:from - 1) + 1
  let s:name = s:col > 0 ? synIDattr(synID(s:line, s:col, 1), 'name') : '(word not found)'
  if s:name ==# s:group
    call add(s:out, printf('ok: %d:%d %s is %s', s:line, s:col, s:word, s:group ==# '' ? '(no group)' : s:group))
  else
    call add(s:out, printf('FAIL: %d:%d %s is %s, expected %s', s:line, s:col, s:word, s:name, s:group))
    let s:failed = 1
  endif
endfor
call writefile(s:out, '/dev/stdout')
if s:failed
  cquit
endif
qall!
