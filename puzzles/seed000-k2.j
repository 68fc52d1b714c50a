NB. k2 of seed 000 (http://www.kakuro.com), copied verbatim; unique, solvable by forced moves alone.

k2=: ".;._2 ] 0 : 0  NB. http://www.kakuro.com
x   ; 13 0 ; 34  0 ;   x  ;   x   ;   x   ; 34 0 ; 10 0
0 16 ;   _  ;   _   ; 29 0 ;   x   ; 28  8 ;   _  ;   _
0  7 ;   _  ;   _   ;   _  ; 10 9  ;   _   ;   _  ;   _
0 41 ;   _  ;   _   ;   _  ;   _   ;   _   ;   _  ;   _
0 29 ;   _  ;   _   ;   _  ;   _   ;   _   ;   _  ;   _
x   ;  0 7 ;   _   ;   _  ; 16 16 ;   _   ;   _  ;   x
x   ; 11 0 ;  7 23 ;   _  ;   _   ;   _   ; 21 0 ; 23 0
0 28 ;   _  ;   _   ;   _  ;   _   ;   _   ;   _  ;   _
0 12 ;   _  ;   _   ;   _  ;  0 20 ;   _   ;   _  ;   _
0  4 ;   _  ;   _   ;   x  ;   x   ;  0 16 ;   _  ;   _
)
