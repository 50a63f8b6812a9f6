" Vim syntax for Plumb's .pipe scripts. The pipeSource and pipeOperator keywords are the
" catalog's names and aliases (EditorGrammarCatalogTests fails when they differ); Scripts/check-editors
" checks the groups under chosen positions with `vim -es`.
if exists("b:current_syntax")
  finish
endif

syntax case match
syntax iskeyword @,48-57,_

syntax keyword pipeSource channel currentValue deferred empty fail from future interval just marble never
syntax keyword pipeSource subject timer
syntax keyword pipeOperator allSatisfy append async asyncMap buffer catch collect combineLatest
syntax keyword pipeOperator compactMap count debounce delay drop dropFirst filter first
syntax keyword pipeOperator flatMap handleEvents ignoreOutput last map max measureInterval merge min
syntax keyword pipeOperator output prefix prepend print receive receiveOn reduce removeDuplicates
syntax keyword pipeOperator replaceEmpty replaceError replaceNil retry scan share sink skip
syntax keyword pipeOperator subscribeOn switchToLatest take throttle timeout values zip
syntax keyword pipeOperator adjacentPairs chunks publisher stream
" `contains` is an argument of :syntax keyword, so it cannot be one: a match instead.
syntax match pipeOperator /\<contains\>/
syntax keyword pipeLet let nextgroup=pipeBinding skipwhite
syntax match pipeBinding /\<\h\w*\>/ contained
syntax keyword pipeExpect expect nextgroup=pipeCheck skipwhite
syntax keyword pipeCheck values finished failed count time marbles subscriptions started contained
syntax keyword pipeTodo todo
syntax keyword pipeConstant true false nil

syntax match pipeNumber /\<\d[0-9_]*\(\.\d[0-9_]*\)\=\([eE][+-]\=\d\+\)\=\>/
syntax match pipeDuration /\<\d[0-9_]*\(\.\d[0-9_]*\)\=\(ns\|us\|µs\|μs\|ms\|s\|m\|h\)\>/
syntax match pipeClosureArgument /\$\d\+/
syntax match pipeLabel /\<\h\w*:\ze\([^:]\|$\)/
syntax match pipeSubjectCommand /\.\(send\|finish\|fail\)\>/
syntax match pipePipe /|/
syntax match pipeLogical /||\|&&/
syntax match pipeBackground /&\ze\s*\(#.*\)\=$/
syntax match pipeRange /\.\.\./

syntax region pipeString start=/"/ skip=/\\./ end=/"\|$/ contains=pipeEscape,pipeInterpolation oneline
syntax match pipeEscape /\\[ntr0\\"']/ contained
syntax region pipeInterpolation matchgroup=pipeInterpolationDelimiter start=/\\(/ end=/)/ contained
      \ contains=TOP,pipeCommand,pipeComment oneline
syntax region pipeParentheses start=/(/ end=/)/ transparent contains=TOP,pipeCommand oneline

" A marble string (after `marble` or `expect marbles`): frames, values, groups, endings.
syntax region pipeMarble start=/\(\<marble\s\+\|\<marbles\s\+\)\@<="/ skip=/\\./ end=/"\|$/
      \ contains=pipeMarbleFrame,pipeMarbleEnd,pipeMarbleGroup,pipeMarbleQuoted oneline
syntax match pipeMarbleFrame /-/ contained
syntax match pipeMarbleEnd /[|#!^]/ contained
syntax match pipeMarbleGroup /[()]/ contained
syntax match pipeMarbleQuoted /'[^']*'/ contained

syntax match pipeComment /#.*$/ contains=@Spell
syntax match pipeCommand /^\s*:\h[A-Za-z0-9_-]*/

highlight default link pipeSource Function
highlight default link pipeOperator Function
highlight default link pipeLet Keyword
highlight default link pipeBinding Identifier
highlight default link pipeExpect Keyword
highlight default link pipeCheck Keyword
highlight default link pipeTodo Todo
highlight default link pipeConstant Constant
highlight default link pipeNumber Number
highlight default link pipeDuration Number
highlight default link pipeClosureArgument Special
highlight default link pipeLabel Label
highlight default link pipeSubjectCommand Function
highlight default link pipePipe Operator
highlight default link pipeLogical Operator
highlight default link pipeBackground Operator
highlight default link pipeRange Operator
highlight default link pipeString String
highlight default link pipeEscape SpecialChar
highlight default link pipeInterpolationDelimiter Delimiter
highlight default link pipeMarble String
highlight default link pipeMarbleFrame Comment
highlight default link pipeMarbleEnd Special
highlight default link pipeMarbleGroup Delimiter
highlight default link pipeMarbleQuoted Character
highlight default link pipeComment Comment
highlight default link pipeCommand PreProc

let b:current_syntax = "pipe"
