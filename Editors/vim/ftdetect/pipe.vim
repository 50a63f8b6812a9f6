" Plumb's .pipe scripts.
autocmd BufRead,BufNewFile *.pipe setfiletype pipe
