// expect: 2017:5: nest too deeply
builtin.module attributes {vichls.top = "small"} {
  func.func @small(%a: memref<8xi32> {vichls.name = "a", vichls.type = "int32"} loc(unknown), %b: memref<8xi8> {vichls.name = "b", vichls.type = "uint8"} loc(unknown), %k: i32 {vichls.name = "k", vichls.type = "int32"} loc(unknown)) -> i32 attributes {vichls.kernel, vichls.ret_type = "int32"} {
    %0 = memref.alloca() : memref<i32> loc("small.py":4:1)
    %1 = memref.alloca() : memref<i32> loc("small.py":4:1)
    %2 = arith.constant 0 : i32 loc("small.py":4:1)
    memref.store %2, %0[] : memref<i32> loc("small.py":4:1)
    memref.store %2, %0[] : memref<i32> loc("small.py":5:5)
    affine.for %i = 0 to 8 {
      %3 = memref.load %0[] : memref<i32> loc("small.py":7:9)
      %4 = affine.load %a[%i] : memref<8xi32> loc("small.py":7:14)
      %5 = arith.muli %4, %k : i32 loc("small.py":7:14)
      %6 = affine.load %b[%i] : memref<8xi8> loc("small.py":7:25)
      %7 = arith.extui %6 : i8 to i32 loc("small.py":7:25)
      %8 = arith.addi %5, %7 : i32 loc("small.py":7:14)
      %9 = arith.addi %3, %8 : i32 loc("small.py":7:9)
      memref.store %9, %0[] : memref<i32> loc("small.py":7:9)
    } loc("small.py":6:5)
    affine.for %j0 = 0 to 1 {
    affine.for %j1 = 0 to 1 {
    affine.for %j2 = 0 to 1 {
    affine.for %j3 = 0 to 1 {
    affine.for %j4 = 0 to 1 {
    affine.for %j5 = 0 to 1 {
    affine.for %j6 = 0 to 1 {
    affine.for %j7 = 0 to 1 {
    affine.for %j8 = 0 to 1 {
    affine.for %j9 = 0 to 1 {
    affine.for %j10 = 0 to 1 {
    affine.for %j11 = 0 to 1 {
    affine.for %j12 = 0 to 1 {
    affine.for %j13 = 0 to 1 {
    affine.for %j14 = 0 to 1 {
    affine.for %j15 = 0 to 1 {
    affine.for %j16 = 0 to 1 {
    affine.for %j17 = 0 to 1 {
    affine.for %j18 = 0 to 1 {
    affine.for %j19 = 0 to 1 {
    affine.for %j20 = 0 to 1 {
    affine.for %j21 = 0 to 1 {
    affine.for %j22 = 0 to 1 {
    affine.for %j23 = 0 to 1 {
    affine.for %j24 = 0 to 1 {
    affine.for %j25 = 0 to 1 {
    affine.for %j26 = 0 to 1 {
    affine.for %j27 = 0 to 1 {
    affine.for %j28 = 0 to 1 {
    affine.for %j29 = 0 to 1 {
    affine.for %j30 = 0 to 1 {
    affine.for %j31 = 0 to 1 {
    affine.for %j32 = 0 to 1 {
    affine.for %j33 = 0 to 1 {
    affine.for %j34 = 0 to 1 {
    affine.for %j35 = 0 to 1 {
    affine.for %j36 = 0 to 1 {
    affine.for %j37 = 0 to 1 {
    affine.for %j38 = 0 to 1 {
    affine.for %j39 = 0 to 1 {
    affine.for %j40 = 0 to 1 {
    affine.for %j41 = 0 to 1 {
    affine.for %j42 = 0 to 1 {
    affine.for %j43 = 0 to 1 {
    affine.for %j44 = 0 to 1 {
    affine.for %j45 = 0 to 1 {
    affine.for %j46 = 0 to 1 {
    affine.for %j47 = 0 to 1 {
    affine.for %j48 = 0 to 1 {
    affine.for %j49 = 0 to 1 {
    affine.for %j50 = 0 to 1 {
    affine.for %j51 = 0 to 1 {
    affine.for %j52 = 0 to 1 {
    affine.for %j53 = 0 to 1 {
    affine.for %j54 = 0 to 1 {
    affine.for %j55 = 0 to 1 {
    affine.for %j56 = 0 to 1 {
    affine.for %j57 = 0 to 1 {
    affine.for %j58 = 0 to 1 {
    affine.for %j59 = 0 to 1 {
    affine.for %j60 = 0 to 1 {
    affine.for %j61 = 0 to 1 {
    affine.for %j62 = 0 to 1 {
    affine.for %j63 = 0 to 1 {
    affine.for %j64 = 0 to 1 {
    affine.for %j65 = 0 to 1 {
    affine.for %j66 = 0 to 1 {
    affine.for %j67 = 0 to 1 {
    affine.for %j68 = 0 to 1 {
    affine.for %j69 = 0 to 1 {
    affine.for %j70 = 0 to 1 {
    affine.for %j71 = 0 to 1 {
    affine.for %j72 = 0 to 1 {
    affine.for %j73 = 0 to 1 {
    affine.for %j74 = 0 to 1 {
    affine.for %j75 = 0 to 1 {
    affine.for %j76 = 0 to 1 {
    affine.for %j77 = 0 to 1 {
    affine.for %j78 = 0 to 1 {
    affine.for %j79 = 0 to 1 {
    affine.for %j80 = 0 to 1 {
    affine.for %j81 = 0 to 1 {
    affine.for %j82 = 0 to 1 {
    affine.for %j83 = 0 to 1 {
    affine.for %j84 = 0 to 1 {
    affine.for %j85 = 0 to 1 {
    affine.for %j86 = 0 to 1 {
    affine.for %j87 = 0 to 1 {
    affine.for %j88 = 0 to 1 {
    affine.for %j89 = 0 to 1 {
    affine.for %j90 = 0 to 1 {
    affine.for %j91 = 0 to 1 {
    affine.for %j92 = 0 to 1 {
    affine.for %j93 = 0 to 1 {
    affine.for %j94 = 0 to 1 {
    affine.for %j95 = 0 to 1 {
    affine.for %j96 = 0 to 1 {
    affine.for %j97 = 0 to 1 {
    affine.for %j98 = 0 to 1 {
    affine.for %j99 = 0 to 1 {
    affine.for %j100 = 0 to 1 {
    affine.for %j101 = 0 to 1 {
    affine.for %j102 = 0 to 1 {
    affine.for %j103 = 0 to 1 {
    affine.for %j104 = 0 to 1 {
    affine.for %j105 = 0 to 1 {
    affine.for %j106 = 0 to 1 {
    affine.for %j107 = 0 to 1 {
    affine.for %j108 = 0 to 1 {
    affine.for %j109 = 0 to 1 {
    affine.for %j110 = 0 to 1 {
    affine.for %j111 = 0 to 1 {
    affine.for %j112 = 0 to 1 {
    affine.for %j113 = 0 to 1 {
    affine.for %j114 = 0 to 1 {
    affine.for %j115 = 0 to 1 {
    affine.for %j116 = 0 to 1 {
    affine.for %j117 = 0 to 1 {
    affine.for %j118 = 0 to 1 {
    affine.for %j119 = 0 to 1 {
    affine.for %j120 = 0 to 1 {
    affine.for %j121 = 0 to 1 {
    affine.for %j122 = 0 to 1 {
    affine.for %j123 = 0 to 1 {
    affine.for %j124 = 0 to 1 {
    affine.for %j125 = 0 to 1 {
    affine.for %j126 = 0 to 1 {
    affine.for %j127 = 0 to 1 {
    affine.for %j128 = 0 to 1 {
    affine.for %j129 = 0 to 1 {
    affine.for %j130 = 0 to 1 {
    affine.for %j131 = 0 to 1 {
    affine.for %j132 = 0 to 1 {
    affine.for %j133 = 0 to 1 {
    affine.for %j134 = 0 to 1 {
    affine.for %j135 = 0 to 1 {
    affine.for %j136 = 0 to 1 {
    affine.for %j137 = 0 to 1 {
    affine.for %j138 = 0 to 1 {
    affine.for %j139 = 0 to 1 {
    affine.for %j140 = 0 to 1 {
    affine.for %j141 = 0 to 1 {
    affine.for %j142 = 0 to 1 {
    affine.for %j143 = 0 to 1 {
    affine.for %j144 = 0 to 1 {
    affine.for %j145 = 0 to 1 {
    affine.for %j146 = 0 to 1 {
    affine.for %j147 = 0 to 1 {
    affine.for %j148 = 0 to 1 {
    affine.for %j149 = 0 to 1 {
    affine.for %j150 = 0 to 1 {
    affine.for %j151 = 0 to 1 {
    affine.for %j152 = 0 to 1 {
    affine.for %j153 = 0 to 1 {
    affine.for %j154 = 0 to 1 {
    affine.for %j155 = 0 to 1 {
    affine.for %j156 = 0 to 1 {
    affine.for %j157 = 0 to 1 {
    affine.for %j158 = 0 to 1 {
    affine.for %j159 = 0 to 1 {
    affine.for %j160 = 0 to 1 {
    affine.for %j161 = 0 to 1 {
    affine.for %j162 = 0 to 1 {
    affine.for %j163 = 0 to 1 {
    affine.for %j164 = 0 to 1 {
    affine.for %j165 = 0 to 1 {
    affine.for %j166 = 0 to 1 {
    affine.for %j167 = 0 to 1 {
    affine.for %j168 = 0 to 1 {
    affine.for %j169 = 0 to 1 {
    affine.for %j170 = 0 to 1 {
    affine.for %j171 = 0 to 1 {
    affine.for %j172 = 0 to 1 {
    affine.for %j173 = 0 to 1 {
    affine.for %j174 = 0 to 1 {
    affine.for %j175 = 0 to 1 {
    affine.for %j176 = 0 to 1 {
    affine.for %j177 = 0 to 1 {
    affine.for %j178 = 0 to 1 {
    affine.for %j179 = 0 to 1 {
    affine.for %j180 = 0 to 1 {
    affine.for %j181 = 0 to 1 {
    affine.for %j182 = 0 to 1 {
    affine.for %j183 = 0 to 1 {
    affine.for %j184 = 0 to 1 {
    affine.for %j185 = 0 to 1 {
    affine.for %j186 = 0 to 1 {
    affine.for %j187 = 0 to 1 {
    affine.for %j188 = 0 to 1 {
    affine.for %j189 = 0 to 1 {
    affine.for %j190 = 0 to 1 {
    affine.for %j191 = 0 to 1 {
    affine.for %j192 = 0 to 1 {
    affine.for %j193 = 0 to 1 {
    affine.for %j194 = 0 to 1 {
    affine.for %j195 = 0 to 1 {
    affine.for %j196 = 0 to 1 {
    affine.for %j197 = 0 to 1 {
    affine.for %j198 = 0 to 1 {
    affine.for %j199 = 0 to 1 {
    affine.for %j200 = 0 to 1 {
    affine.for %j201 = 0 to 1 {
    affine.for %j202 = 0 to 1 {
    affine.for %j203 = 0 to 1 {
    affine.for %j204 = 0 to 1 {
    affine.for %j205 = 0 to 1 {
    affine.for %j206 = 0 to 1 {
    affine.for %j207 = 0 to 1 {
    affine.for %j208 = 0 to 1 {
    affine.for %j209 = 0 to 1 {
    affine.for %j210 = 0 to 1 {
    affine.for %j211 = 0 to 1 {
    affine.for %j212 = 0 to 1 {
    affine.for %j213 = 0 to 1 {
    affine.for %j214 = 0 to 1 {
    affine.for %j215 = 0 to 1 {
    affine.for %j216 = 0 to 1 {
    affine.for %j217 = 0 to 1 {
    affine.for %j218 = 0 to 1 {
    affine.for %j219 = 0 to 1 {
    affine.for %j220 = 0 to 1 {
    affine.for %j221 = 0 to 1 {
    affine.for %j222 = 0 to 1 {
    affine.for %j223 = 0 to 1 {
    affine.for %j224 = 0 to 1 {
    affine.for %j225 = 0 to 1 {
    affine.for %j226 = 0 to 1 {
    affine.for %j227 = 0 to 1 {
    affine.for %j228 = 0 to 1 {
    affine.for %j229 = 0 to 1 {
    affine.for %j230 = 0 to 1 {
    affine.for %j231 = 0 to 1 {
    affine.for %j232 = 0 to 1 {
    affine.for %j233 = 0 to 1 {
    affine.for %j234 = 0 to 1 {
    affine.for %j235 = 0 to 1 {
    affine.for %j236 = 0 to 1 {
    affine.for %j237 = 0 to 1 {
    affine.for %j238 = 0 to 1 {
    affine.for %j239 = 0 to 1 {
    affine.for %j240 = 0 to 1 {
    affine.for %j241 = 0 to 1 {
    affine.for %j242 = 0 to 1 {
    affine.for %j243 = 0 to 1 {
    affine.for %j244 = 0 to 1 {
    affine.for %j245 = 0 to 1 {
    affine.for %j246 = 0 to 1 {
    affine.for %j247 = 0 to 1 {
    affine.for %j248 = 0 to 1 {
    affine.for %j249 = 0 to 1 {
    affine.for %j250 = 0 to 1 {
    affine.for %j251 = 0 to 1 {
    affine.for %j252 = 0 to 1 {
    affine.for %j253 = 0 to 1 {
    affine.for %j254 = 0 to 1 {
    affine.for %j255 = 0 to 1 {
    affine.for %j256 = 0 to 1 {
    affine.for %j257 = 0 to 1 {
    affine.for %j258 = 0 to 1 {
    affine.for %j259 = 0 to 1 {
    affine.for %j260 = 0 to 1 {
    affine.for %j261 = 0 to 1 {
    affine.for %j262 = 0 to 1 {
    affine.for %j263 = 0 to 1 {
    affine.for %j264 = 0 to 1 {
    affine.for %j265 = 0 to 1 {
    affine.for %j266 = 0 to 1 {
    affine.for %j267 = 0 to 1 {
    affine.for %j268 = 0 to 1 {
    affine.for %j269 = 0 to 1 {
    affine.for %j270 = 0 to 1 {
    affine.for %j271 = 0 to 1 {
    affine.for %j272 = 0 to 1 {
    affine.for %j273 = 0 to 1 {
    affine.for %j274 = 0 to 1 {
    affine.for %j275 = 0 to 1 {
    affine.for %j276 = 0 to 1 {
    affine.for %j277 = 0 to 1 {
    affine.for %j278 = 0 to 1 {
    affine.for %j279 = 0 to 1 {
    affine.for %j280 = 0 to 1 {
    affine.for %j281 = 0 to 1 {
    affine.for %j282 = 0 to 1 {
    affine.for %j283 = 0 to 1 {
    affine.for %j284 = 0 to 1 {
    affine.for %j285 = 0 to 1 {
    affine.for %j286 = 0 to 1 {
    affine.for %j287 = 0 to 1 {
    affine.for %j288 = 0 to 1 {
    affine.for %j289 = 0 to 1 {
    affine.for %j290 = 0 to 1 {
    affine.for %j291 = 0 to 1 {
    affine.for %j292 = 0 to 1 {
    affine.for %j293 = 0 to 1 {
    affine.for %j294 = 0 to 1 {
    affine.for %j295 = 0 to 1 {
    affine.for %j296 = 0 to 1 {
    affine.for %j297 = 0 to 1 {
    affine.for %j298 = 0 to 1 {
    affine.for %j299 = 0 to 1 {
    affine.for %j300 = 0 to 1 {
    affine.for %j301 = 0 to 1 {
    affine.for %j302 = 0 to 1 {
    affine.for %j303 = 0 to 1 {
    affine.for %j304 = 0 to 1 {
    affine.for %j305 = 0 to 1 {
    affine.for %j306 = 0 to 1 {
    affine.for %j307 = 0 to 1 {
    affine.for %j308 = 0 to 1 {
    affine.for %j309 = 0 to 1 {
    affine.for %j310 = 0 to 1 {
    affine.for %j311 = 0 to 1 {
    affine.for %j312 = 0 to 1 {
    affine.for %j313 = 0 to 1 {
    affine.for %j314 = 0 to 1 {
    affine.for %j315 = 0 to 1 {
    affine.for %j316 = 0 to 1 {
    affine.for %j317 = 0 to 1 {
    affine.for %j318 = 0 to 1 {
    affine.for %j319 = 0 to 1 {
    affine.for %j320 = 0 to 1 {
    affine.for %j321 = 0 to 1 {
    affine.for %j322 = 0 to 1 {
    affine.for %j323 = 0 to 1 {
    affine.for %j324 = 0 to 1 {
    affine.for %j325 = 0 to 1 {
    affine.for %j326 = 0 to 1 {
    affine.for %j327 = 0 to 1 {
    affine.for %j328 = 0 to 1 {
    affine.for %j329 = 0 to 1 {
    affine.for %j330 = 0 to 1 {
    affine.for %j331 = 0 to 1 {
    affine.for %j332 = 0 to 1 {
    affine.for %j333 = 0 to 1 {
    affine.for %j334 = 0 to 1 {
    affine.for %j335 = 0 to 1 {
    affine.for %j336 = 0 to 1 {
    affine.for %j337 = 0 to 1 {
    affine.for %j338 = 0 to 1 {
    affine.for %j339 = 0 to 1 {
    affine.for %j340 = 0 to 1 {
    affine.for %j341 = 0 to 1 {
    affine.for %j342 = 0 to 1 {
    affine.for %j343 = 0 to 1 {
    affine.for %j344 = 0 to 1 {
    affine.for %j345 = 0 to 1 {
    affine.for %j346 = 0 to 1 {
    affine.for %j347 = 0 to 1 {
    affine.for %j348 = 0 to 1 {
    affine.for %j349 = 0 to 1 {
    affine.for %j350 = 0 to 1 {
    affine.for %j351 = 0 to 1 {
    affine.for %j352 = 0 to 1 {
    affine.for %j353 = 0 to 1 {
    affine.for %j354 = 0 to 1 {
    affine.for %j355 = 0 to 1 {
    affine.for %j356 = 0 to 1 {
    affine.for %j357 = 0 to 1 {
    affine.for %j358 = 0 to 1 {
    affine.for %j359 = 0 to 1 {
    affine.for %j360 = 0 to 1 {
    affine.for %j361 = 0 to 1 {
    affine.for %j362 = 0 to 1 {
    affine.for %j363 = 0 to 1 {
    affine.for %j364 = 0 to 1 {
    affine.for %j365 = 0 to 1 {
    affine.for %j366 = 0 to 1 {
    affine.for %j367 = 0 to 1 {
    affine.for %j368 = 0 to 1 {
    affine.for %j369 = 0 to 1 {
    affine.for %j370 = 0 to 1 {
    affine.for %j371 = 0 to 1 {
    affine.for %j372 = 0 to 1 {
    affine.for %j373 = 0 to 1 {
    affine.for %j374 = 0 to 1 {
    affine.for %j375 = 0 to 1 {
    affine.for %j376 = 0 to 1 {
    affine.for %j377 = 0 to 1 {
    affine.for %j378 = 0 to 1 {
    affine.for %j379 = 0 to 1 {
    affine.for %j380 = 0 to 1 {
    affine.for %j381 = 0 to 1 {
    affine.for %j382 = 0 to 1 {
    affine.for %j383 = 0 to 1 {
    affine.for %j384 = 0 to 1 {
    affine.for %j385 = 0 to 1 {
    affine.for %j386 = 0 to 1 {
    affine.for %j387 = 0 to 1 {
    affine.for %j388 = 0 to 1 {
    affine.for %j389 = 0 to 1 {
    affine.for %j390 = 0 to 1 {
    affine.for %j391 = 0 to 1 {
    affine.for %j392 = 0 to 1 {
    affine.for %j393 = 0 to 1 {
    affine.for %j394 = 0 to 1 {
    affine.for %j395 = 0 to 1 {
    affine.for %j396 = 0 to 1 {
    affine.for %j397 = 0 to 1 {
    affine.for %j398 = 0 to 1 {
    affine.for %j399 = 0 to 1 {
    affine.for %j400 = 0 to 1 {
    affine.for %j401 = 0 to 1 {
    affine.for %j402 = 0 to 1 {
    affine.for %j403 = 0 to 1 {
    affine.for %j404 = 0 to 1 {
    affine.for %j405 = 0 to 1 {
    affine.for %j406 = 0 to 1 {
    affine.for %j407 = 0 to 1 {
    affine.for %j408 = 0 to 1 {
    affine.for %j409 = 0 to 1 {
    affine.for %j410 = 0 to 1 {
    affine.for %j411 = 0 to 1 {
    affine.for %j412 = 0 to 1 {
    affine.for %j413 = 0 to 1 {
    affine.for %j414 = 0 to 1 {
    affine.for %j415 = 0 to 1 {
    affine.for %j416 = 0 to 1 {
    affine.for %j417 = 0 to 1 {
    affine.for %j418 = 0 to 1 {
    affine.for %j419 = 0 to 1 {
    affine.for %j420 = 0 to 1 {
    affine.for %j421 = 0 to 1 {
    affine.for %j422 = 0 to 1 {
    affine.for %j423 = 0 to 1 {
    affine.for %j424 = 0 to 1 {
    affine.for %j425 = 0 to 1 {
    affine.for %j426 = 0 to 1 {
    affine.for %j427 = 0 to 1 {
    affine.for %j428 = 0 to 1 {
    affine.for %j429 = 0 to 1 {
    affine.for %j430 = 0 to 1 {
    affine.for %j431 = 0 to 1 {
    affine.for %j432 = 0 to 1 {
    affine.for %j433 = 0 to 1 {
    affine.for %j434 = 0 to 1 {
    affine.for %j435 = 0 to 1 {
    affine.for %j436 = 0 to 1 {
    affine.for %j437 = 0 to 1 {
    affine.for %j438 = 0 to 1 {
    affine.for %j439 = 0 to 1 {
    affine.for %j440 = 0 to 1 {
    affine.for %j441 = 0 to 1 {
    affine.for %j442 = 0 to 1 {
    affine.for %j443 = 0 to 1 {
    affine.for %j444 = 0 to 1 {
    affine.for %j445 = 0 to 1 {
    affine.for %j446 = 0 to 1 {
    affine.for %j447 = 0 to 1 {
    affine.for %j448 = 0 to 1 {
    affine.for %j449 = 0 to 1 {
    affine.for %j450 = 0 to 1 {
    affine.for %j451 = 0 to 1 {
    affine.for %j452 = 0 to 1 {
    affine.for %j453 = 0 to 1 {
    affine.for %j454 = 0 to 1 {
    affine.for %j455 = 0 to 1 {
    affine.for %j456 = 0 to 1 {
    affine.for %j457 = 0 to 1 {
    affine.for %j458 = 0 to 1 {
    affine.for %j459 = 0 to 1 {
    affine.for %j460 = 0 to 1 {
    affine.for %j461 = 0 to 1 {
    affine.for %j462 = 0 to 1 {
    affine.for %j463 = 0 to 1 {
    affine.for %j464 = 0 to 1 {
    affine.for %j465 = 0 to 1 {
    affine.for %j466 = 0 to 1 {
    affine.for %j467 = 0 to 1 {
    affine.for %j468 = 0 to 1 {
    affine.for %j469 = 0 to 1 {
    affine.for %j470 = 0 to 1 {
    affine.for %j471 = 0 to 1 {
    affine.for %j472 = 0 to 1 {
    affine.for %j473 = 0 to 1 {
    affine.for %j474 = 0 to 1 {
    affine.for %j475 = 0 to 1 {
    affine.for %j476 = 0 to 1 {
    affine.for %j477 = 0 to 1 {
    affine.for %j478 = 0 to 1 {
    affine.for %j479 = 0 to 1 {
    affine.for %j480 = 0 to 1 {
    affine.for %j481 = 0 to 1 {
    affine.for %j482 = 0 to 1 {
    affine.for %j483 = 0 to 1 {
    affine.for %j484 = 0 to 1 {
    affine.for %j485 = 0 to 1 {
    affine.for %j486 = 0 to 1 {
    affine.for %j487 = 0 to 1 {
    affine.for %j488 = 0 to 1 {
    affine.for %j489 = 0 to 1 {
    affine.for %j490 = 0 to 1 {
    affine.for %j491 = 0 to 1 {
    affine.for %j492 = 0 to 1 {
    affine.for %j493 = 0 to 1 {
    affine.for %j494 = 0 to 1 {
    affine.for %j495 = 0 to 1 {
    affine.for %j496 = 0 to 1 {
    affine.for %j497 = 0 to 1 {
    affine.for %j498 = 0 to 1 {
    affine.for %j499 = 0 to 1 {
    affine.for %j500 = 0 to 1 {
    affine.for %j501 = 0 to 1 {
    affine.for %j502 = 0 to 1 {
    affine.for %j503 = 0 to 1 {
    affine.for %j504 = 0 to 1 {
    affine.for %j505 = 0 to 1 {
    affine.for %j506 = 0 to 1 {
    affine.for %j507 = 0 to 1 {
    affine.for %j508 = 0 to 1 {
    affine.for %j509 = 0 to 1 {
    affine.for %j510 = 0 to 1 {
    affine.for %j511 = 0 to 1 {
    affine.for %j512 = 0 to 1 {
    affine.for %j513 = 0 to 1 {
    affine.for %j514 = 0 to 1 {
    affine.for %j515 = 0 to 1 {
    affine.for %j516 = 0 to 1 {
    affine.for %j517 = 0 to 1 {
    affine.for %j518 = 0 to 1 {
    affine.for %j519 = 0 to 1 {
    affine.for %j520 = 0 to 1 {
    affine.for %j521 = 0 to 1 {
    affine.for %j522 = 0 to 1 {
    affine.for %j523 = 0 to 1 {
    affine.for %j524 = 0 to 1 {
    affine.for %j525 = 0 to 1 {
    affine.for %j526 = 0 to 1 {
    affine.for %j527 = 0 to 1 {
    affine.for %j528 = 0 to 1 {
    affine.for %j529 = 0 to 1 {
    affine.for %j530 = 0 to 1 {
    affine.for %j531 = 0 to 1 {
    affine.for %j532 = 0 to 1 {
    affine.for %j533 = 0 to 1 {
    affine.for %j534 = 0 to 1 {
    affine.for %j535 = 0 to 1 {
    affine.for %j536 = 0 to 1 {
    affine.for %j537 = 0 to 1 {
    affine.for %j538 = 0 to 1 {
    affine.for %j539 = 0 to 1 {
    affine.for %j540 = 0 to 1 {
    affine.for %j541 = 0 to 1 {
    affine.for %j542 = 0 to 1 {
    affine.for %j543 = 0 to 1 {
    affine.for %j544 = 0 to 1 {
    affine.for %j545 = 0 to 1 {
    affine.for %j546 = 0 to 1 {
    affine.for %j547 = 0 to 1 {
    affine.for %j548 = 0 to 1 {
    affine.for %j549 = 0 to 1 {
    affine.for %j550 = 0 to 1 {
    affine.for %j551 = 0 to 1 {
    affine.for %j552 = 0 to 1 {
    affine.for %j553 = 0 to 1 {
    affine.for %j554 = 0 to 1 {
    affine.for %j555 = 0 to 1 {
    affine.for %j556 = 0 to 1 {
    affine.for %j557 = 0 to 1 {
    affine.for %j558 = 0 to 1 {
    affine.for %j559 = 0 to 1 {
    affine.for %j560 = 0 to 1 {
    affine.for %j561 = 0 to 1 {
    affine.for %j562 = 0 to 1 {
    affine.for %j563 = 0 to 1 {
    affine.for %j564 = 0 to 1 {
    affine.for %j565 = 0 to 1 {
    affine.for %j566 = 0 to 1 {
    affine.for %j567 = 0 to 1 {
    affine.for %j568 = 0 to 1 {
    affine.for %j569 = 0 to 1 {
    affine.for %j570 = 0 to 1 {
    affine.for %j571 = 0 to 1 {
    affine.for %j572 = 0 to 1 {
    affine.for %j573 = 0 to 1 {
    affine.for %j574 = 0 to 1 {
    affine.for %j575 = 0 to 1 {
    affine.for %j576 = 0 to 1 {
    affine.for %j577 = 0 to 1 {
    affine.for %j578 = 0 to 1 {
    affine.for %j579 = 0 to 1 {
    affine.for %j580 = 0 to 1 {
    affine.for %j581 = 0 to 1 {
    affine.for %j582 = 0 to 1 {
    affine.for %j583 = 0 to 1 {
    affine.for %j584 = 0 to 1 {
    affine.for %j585 = 0 to 1 {
    affine.for %j586 = 0 to 1 {
    affine.for %j587 = 0 to 1 {
    affine.for %j588 = 0 to 1 {
    affine.for %j589 = 0 to 1 {
    affine.for %j590 = 0 to 1 {
    affine.for %j591 = 0 to 1 {
    affine.for %j592 = 0 to 1 {
    affine.for %j593 = 0 to 1 {
    affine.for %j594 = 0 to 1 {
    affine.for %j595 = 0 to 1 {
    affine.for %j596 = 0 to 1 {
    affine.for %j597 = 0 to 1 {
    affine.for %j598 = 0 to 1 {
    affine.for %j599 = 0 to 1 {
    affine.for %j600 = 0 to 1 {
    affine.for %j601 = 0 to 1 {
    affine.for %j602 = 0 to 1 {
    affine.for %j603 = 0 to 1 {
    affine.for %j604 = 0 to 1 {
    affine.for %j605 = 0 to 1 {
    affine.for %j606 = 0 to 1 {
    affine.for %j607 = 0 to 1 {
    affine.for %j608 = 0 to 1 {
    affine.for %j609 = 0 to 1 {
    affine.for %j610 = 0 to 1 {
    affine.for %j611 = 0 to 1 {
    affine.for %j612 = 0 to 1 {
    affine.for %j613 = 0 to 1 {
    affine.for %j614 = 0 to 1 {
    affine.for %j615 = 0 to 1 {
    affine.for %j616 = 0 to 1 {
    affine.for %j617 = 0 to 1 {
    affine.for %j618 = 0 to 1 {
    affine.for %j619 = 0 to 1 {
    affine.for %j620 = 0 to 1 {
    affine.for %j621 = 0 to 1 {
    affine.for %j622 = 0 to 1 {
    affine.for %j623 = 0 to 1 {
    affine.for %j624 = 0 to 1 {
    affine.for %j625 = 0 to 1 {
    affine.for %j626 = 0 to 1 {
    affine.for %j627 = 0 to 1 {
    affine.for %j628 = 0 to 1 {
    affine.for %j629 = 0 to 1 {
    affine.for %j630 = 0 to 1 {
    affine.for %j631 = 0 to 1 {
    affine.for %j632 = 0 to 1 {
    affine.for %j633 = 0 to 1 {
    affine.for %j634 = 0 to 1 {
    affine.for %j635 = 0 to 1 {
    affine.for %j636 = 0 to 1 {
    affine.for %j637 = 0 to 1 {
    affine.for %j638 = 0 to 1 {
    affine.for %j639 = 0 to 1 {
    affine.for %j640 = 0 to 1 {
    affine.for %j641 = 0 to 1 {
    affine.for %j642 = 0 to 1 {
    affine.for %j643 = 0 to 1 {
    affine.for %j644 = 0 to 1 {
    affine.for %j645 = 0 to 1 {
    affine.for %j646 = 0 to 1 {
    affine.for %j647 = 0 to 1 {
    affine.for %j648 = 0 to 1 {
    affine.for %j649 = 0 to 1 {
    affine.for %j650 = 0 to 1 {
    affine.for %j651 = 0 to 1 {
    affine.for %j652 = 0 to 1 {
    affine.for %j653 = 0 to 1 {
    affine.for %j654 = 0 to 1 {
    affine.for %j655 = 0 to 1 {
    affine.for %j656 = 0 to 1 {
    affine.for %j657 = 0 to 1 {
    affine.for %j658 = 0 to 1 {
    affine.for %j659 = 0 to 1 {
    affine.for %j660 = 0 to 1 {
    affine.for %j661 = 0 to 1 {
    affine.for %j662 = 0 to 1 {
    affine.for %j663 = 0 to 1 {
    affine.for %j664 = 0 to 1 {
    affine.for %j665 = 0 to 1 {
    affine.for %j666 = 0 to 1 {
    affine.for %j667 = 0 to 1 {
    affine.for %j668 = 0 to 1 {
    affine.for %j669 = 0 to 1 {
    affine.for %j670 = 0 to 1 {
    affine.for %j671 = 0 to 1 {
    affine.for %j672 = 0 to 1 {
    affine.for %j673 = 0 to 1 {
    affine.for %j674 = 0 to 1 {
    affine.for %j675 = 0 to 1 {
    affine.for %j676 = 0 to 1 {
    affine.for %j677 = 0 to 1 {
    affine.for %j678 = 0 to 1 {
    affine.for %j679 = 0 to 1 {
    affine.for %j680 = 0 to 1 {
    affine.for %j681 = 0 to 1 {
    affine.for %j682 = 0 to 1 {
    affine.for %j683 = 0 to 1 {
    affine.for %j684 = 0 to 1 {
    affine.for %j685 = 0 to 1 {
    affine.for %j686 = 0 to 1 {
    affine.for %j687 = 0 to 1 {
    affine.for %j688 = 0 to 1 {
    affine.for %j689 = 0 to 1 {
    affine.for %j690 = 0 to 1 {
    affine.for %j691 = 0 to 1 {
    affine.for %j692 = 0 to 1 {
    affine.for %j693 = 0 to 1 {
    affine.for %j694 = 0 to 1 {
    affine.for %j695 = 0 to 1 {
    affine.for %j696 = 0 to 1 {
    affine.for %j697 = 0 to 1 {
    affine.for %j698 = 0 to 1 {
    affine.for %j699 = 0 to 1 {
    affine.for %j700 = 0 to 1 {
    affine.for %j701 = 0 to 1 {
    affine.for %j702 = 0 to 1 {
    affine.for %j703 = 0 to 1 {
    affine.for %j704 = 0 to 1 {
    affine.for %j705 = 0 to 1 {
    affine.for %j706 = 0 to 1 {
    affine.for %j707 = 0 to 1 {
    affine.for %j708 = 0 to 1 {
    affine.for %j709 = 0 to 1 {
    affine.for %j710 = 0 to 1 {
    affine.for %j711 = 0 to 1 {
    affine.for %j712 = 0 to 1 {
    affine.for %j713 = 0 to 1 {
    affine.for %j714 = 0 to 1 {
    affine.for %j715 = 0 to 1 {
    affine.for %j716 = 0 to 1 {
    affine.for %j717 = 0 to 1 {
    affine.for %j718 = 0 to 1 {
    affine.for %j719 = 0 to 1 {
    affine.for %j720 = 0 to 1 {
    affine.for %j721 = 0 to 1 {
    affine.for %j722 = 0 to 1 {
    affine.for %j723 = 0 to 1 {
    affine.for %j724 = 0 to 1 {
    affine.for %j725 = 0 to 1 {
    affine.for %j726 = 0 to 1 {
    affine.for %j727 = 0 to 1 {
    affine.for %j728 = 0 to 1 {
    affine.for %j729 = 0 to 1 {
    affine.for %j730 = 0 to 1 {
    affine.for %j731 = 0 to 1 {
    affine.for %j732 = 0 to 1 {
    affine.for %j733 = 0 to 1 {
    affine.for %j734 = 0 to 1 {
    affine.for %j735 = 0 to 1 {
    affine.for %j736 = 0 to 1 {
    affine.for %j737 = 0 to 1 {
    affine.for %j738 = 0 to 1 {
    affine.for %j739 = 0 to 1 {
    affine.for %j740 = 0 to 1 {
    affine.for %j741 = 0 to 1 {
    affine.for %j742 = 0 to 1 {
    affine.for %j743 = 0 to 1 {
    affine.for %j744 = 0 to 1 {
    affine.for %j745 = 0 to 1 {
    affine.for %j746 = 0 to 1 {
    affine.for %j747 = 0 to 1 {
    affine.for %j748 = 0 to 1 {
    affine.for %j749 = 0 to 1 {
    affine.for %j750 = 0 to 1 {
    affine.for %j751 = 0 to 1 {
    affine.for %j752 = 0 to 1 {
    affine.for %j753 = 0 to 1 {
    affine.for %j754 = 0 to 1 {
    affine.for %j755 = 0 to 1 {
    affine.for %j756 = 0 to 1 {
    affine.for %j757 = 0 to 1 {
    affine.for %j758 = 0 to 1 {
    affine.for %j759 = 0 to 1 {
    affine.for %j760 = 0 to 1 {
    affine.for %j761 = 0 to 1 {
    affine.for %j762 = 0 to 1 {
    affine.for %j763 = 0 to 1 {
    affine.for %j764 = 0 to 1 {
    affine.for %j765 = 0 to 1 {
    affine.for %j766 = 0 to 1 {
    affine.for %j767 = 0 to 1 {
    affine.for %j768 = 0 to 1 {
    affine.for %j769 = 0 to 1 {
    affine.for %j770 = 0 to 1 {
    affine.for %j771 = 0 to 1 {
    affine.for %j772 = 0 to 1 {
    affine.for %j773 = 0 to 1 {
    affine.for %j774 = 0 to 1 {
    affine.for %j775 = 0 to 1 {
    affine.for %j776 = 0 to 1 {
    affine.for %j777 = 0 to 1 {
    affine.for %j778 = 0 to 1 {
    affine.for %j779 = 0 to 1 {
    affine.for %j780 = 0 to 1 {
    affine.for %j781 = 0 to 1 {
    affine.for %j782 = 0 to 1 {
    affine.for %j783 = 0 to 1 {
    affine.for %j784 = 0 to 1 {
    affine.for %j785 = 0 to 1 {
    affine.for %j786 = 0 to 1 {
    affine.for %j787 = 0 to 1 {
    affine.for %j788 = 0 to 1 {
    affine.for %j789 = 0 to 1 {
    affine.for %j790 = 0 to 1 {
    affine.for %j791 = 0 to 1 {
    affine.for %j792 = 0 to 1 {
    affine.for %j793 = 0 to 1 {
    affine.for %j794 = 0 to 1 {
    affine.for %j795 = 0 to 1 {
    affine.for %j796 = 0 to 1 {
    affine.for %j797 = 0 to 1 {
    affine.for %j798 = 0 to 1 {
    affine.for %j799 = 0 to 1 {
    affine.for %j800 = 0 to 1 {
    affine.for %j801 = 0 to 1 {
    affine.for %j802 = 0 to 1 {
    affine.for %j803 = 0 to 1 {
    affine.for %j804 = 0 to 1 {
    affine.for %j805 = 0 to 1 {
    affine.for %j806 = 0 to 1 {
    affine.for %j807 = 0 to 1 {
    affine.for %j808 = 0 to 1 {
    affine.for %j809 = 0 to 1 {
    affine.for %j810 = 0 to 1 {
    affine.for %j811 = 0 to 1 {
    affine.for %j812 = 0 to 1 {
    affine.for %j813 = 0 to 1 {
    affine.for %j814 = 0 to 1 {
    affine.for %j815 = 0 to 1 {
    affine.for %j816 = 0 to 1 {
    affine.for %j817 = 0 to 1 {
    affine.for %j818 = 0 to 1 {
    affine.for %j819 = 0 to 1 {
    affine.for %j820 = 0 to 1 {
    affine.for %j821 = 0 to 1 {
    affine.for %j822 = 0 to 1 {
    affine.for %j823 = 0 to 1 {
    affine.for %j824 = 0 to 1 {
    affine.for %j825 = 0 to 1 {
    affine.for %j826 = 0 to 1 {
    affine.for %j827 = 0 to 1 {
    affine.for %j828 = 0 to 1 {
    affine.for %j829 = 0 to 1 {
    affine.for %j830 = 0 to 1 {
    affine.for %j831 = 0 to 1 {
    affine.for %j832 = 0 to 1 {
    affine.for %j833 = 0 to 1 {
    affine.for %j834 = 0 to 1 {
    affine.for %j835 = 0 to 1 {
    affine.for %j836 = 0 to 1 {
    affine.for %j837 = 0 to 1 {
    affine.for %j838 = 0 to 1 {
    affine.for %j839 = 0 to 1 {
    affine.for %j840 = 0 to 1 {
    affine.for %j841 = 0 to 1 {
    affine.for %j842 = 0 to 1 {
    affine.for %j843 = 0 to 1 {
    affine.for %j844 = 0 to 1 {
    affine.for %j845 = 0 to 1 {
    affine.for %j846 = 0 to 1 {
    affine.for %j847 = 0 to 1 {
    affine.for %j848 = 0 to 1 {
    affine.for %j849 = 0 to 1 {
    affine.for %j850 = 0 to 1 {
    affine.for %j851 = 0 to 1 {
    affine.for %j852 = 0 to 1 {
    affine.for %j853 = 0 to 1 {
    affine.for %j854 = 0 to 1 {
    affine.for %j855 = 0 to 1 {
    affine.for %j856 = 0 to 1 {
    affine.for %j857 = 0 to 1 {
    affine.for %j858 = 0 to 1 {
    affine.for %j859 = 0 to 1 {
    affine.for %j860 = 0 to 1 {
    affine.for %j861 = 0 to 1 {
    affine.for %j862 = 0 to 1 {
    affine.for %j863 = 0 to 1 {
    affine.for %j864 = 0 to 1 {
    affine.for %j865 = 0 to 1 {
    affine.for %j866 = 0 to 1 {
    affine.for %j867 = 0 to 1 {
    affine.for %j868 = 0 to 1 {
    affine.for %j869 = 0 to 1 {
    affine.for %j870 = 0 to 1 {
    affine.for %j871 = 0 to 1 {
    affine.for %j872 = 0 to 1 {
    affine.for %j873 = 0 to 1 {
    affine.for %j874 = 0 to 1 {
    affine.for %j875 = 0 to 1 {
    affine.for %j876 = 0 to 1 {
    affine.for %j877 = 0 to 1 {
    affine.for %j878 = 0 to 1 {
    affine.for %j879 = 0 to 1 {
    affine.for %j880 = 0 to 1 {
    affine.for %j881 = 0 to 1 {
    affine.for %j882 = 0 to 1 {
    affine.for %j883 = 0 to 1 {
    affine.for %j884 = 0 to 1 {
    affine.for %j885 = 0 to 1 {
    affine.for %j886 = 0 to 1 {
    affine.for %j887 = 0 to 1 {
    affine.for %j888 = 0 to 1 {
    affine.for %j889 = 0 to 1 {
    affine.for %j890 = 0 to 1 {
    affine.for %j891 = 0 to 1 {
    affine.for %j892 = 0 to 1 {
    affine.for %j893 = 0 to 1 {
    affine.for %j894 = 0 to 1 {
    affine.for %j895 = 0 to 1 {
    affine.for %j896 = 0 to 1 {
    affine.for %j897 = 0 to 1 {
    affine.for %j898 = 0 to 1 {
    affine.for %j899 = 0 to 1 {
    affine.for %j900 = 0 to 1 {
    affine.for %j901 = 0 to 1 {
    affine.for %j902 = 0 to 1 {
    affine.for %j903 = 0 to 1 {
    affine.for %j904 = 0 to 1 {
    affine.for %j905 = 0 to 1 {
    affine.for %j906 = 0 to 1 {
    affine.for %j907 = 0 to 1 {
    affine.for %j908 = 0 to 1 {
    affine.for %j909 = 0 to 1 {
    affine.for %j910 = 0 to 1 {
    affine.for %j911 = 0 to 1 {
    affine.for %j912 = 0 to 1 {
    affine.for %j913 = 0 to 1 {
    affine.for %j914 = 0 to 1 {
    affine.for %j915 = 0 to 1 {
    affine.for %j916 = 0 to 1 {
    affine.for %j917 = 0 to 1 {
    affine.for %j918 = 0 to 1 {
    affine.for %j919 = 0 to 1 {
    affine.for %j920 = 0 to 1 {
    affine.for %j921 = 0 to 1 {
    affine.for %j922 = 0 to 1 {
    affine.for %j923 = 0 to 1 {
    affine.for %j924 = 0 to 1 {
    affine.for %j925 = 0 to 1 {
    affine.for %j926 = 0 to 1 {
    affine.for %j927 = 0 to 1 {
    affine.for %j928 = 0 to 1 {
    affine.for %j929 = 0 to 1 {
    affine.for %j930 = 0 to 1 {
    affine.for %j931 = 0 to 1 {
    affine.for %j932 = 0 to 1 {
    affine.for %j933 = 0 to 1 {
    affine.for %j934 = 0 to 1 {
    affine.for %j935 = 0 to 1 {
    affine.for %j936 = 0 to 1 {
    affine.for %j937 = 0 to 1 {
    affine.for %j938 = 0 to 1 {
    affine.for %j939 = 0 to 1 {
    affine.for %j940 = 0 to 1 {
    affine.for %j941 = 0 to 1 {
    affine.for %j942 = 0 to 1 {
    affine.for %j943 = 0 to 1 {
    affine.for %j944 = 0 to 1 {
    affine.for %j945 = 0 to 1 {
    affine.for %j946 = 0 to 1 {
    affine.for %j947 = 0 to 1 {
    affine.for %j948 = 0 to 1 {
    affine.for %j949 = 0 to 1 {
    affine.for %j950 = 0 to 1 {
    affine.for %j951 = 0 to 1 {
    affine.for %j952 = 0 to 1 {
    affine.for %j953 = 0 to 1 {
    affine.for %j954 = 0 to 1 {
    affine.for %j955 = 0 to 1 {
    affine.for %j956 = 0 to 1 {
    affine.for %j957 = 0 to 1 {
    affine.for %j958 = 0 to 1 {
    affine.for %j959 = 0 to 1 {
    affine.for %j960 = 0 to 1 {
    affine.for %j961 = 0 to 1 {
    affine.for %j962 = 0 to 1 {
    affine.for %j963 = 0 to 1 {
    affine.for %j964 = 0 to 1 {
    affine.for %j965 = 0 to 1 {
    affine.for %j966 = 0 to 1 {
    affine.for %j967 = 0 to 1 {
    affine.for %j968 = 0 to 1 {
    affine.for %j969 = 0 to 1 {
    affine.for %j970 = 0 to 1 {
    affine.for %j971 = 0 to 1 {
    affine.for %j972 = 0 to 1 {
    affine.for %j973 = 0 to 1 {
    affine.for %j974 = 0 to 1 {
    affine.for %j975 = 0 to 1 {
    affine.for %j976 = 0 to 1 {
    affine.for %j977 = 0 to 1 {
    affine.for %j978 = 0 to 1 {
    affine.for %j979 = 0 to 1 {
    affine.for %j980 = 0 to 1 {
    affine.for %j981 = 0 to 1 {
    affine.for %j982 = 0 to 1 {
    affine.for %j983 = 0 to 1 {
    affine.for %j984 = 0 to 1 {
    affine.for %j985 = 0 to 1 {
    affine.for %j986 = 0 to 1 {
    affine.for %j987 = 0 to 1 {
    affine.for %j988 = 0 to 1 {
    affine.for %j989 = 0 to 1 {
    affine.for %j990 = 0 to 1 {
    affine.for %j991 = 0 to 1 {
    affine.for %j992 = 0 to 1 {
    affine.for %j993 = 0 to 1 {
    affine.for %j994 = 0 to 1 {
    affine.for %j995 = 0 to 1 {
    affine.for %j996 = 0 to 1 {
    affine.for %j997 = 0 to 1 {
    affine.for %j998 = 0 to 1 {
    affine.for %j999 = 0 to 1 {
    affine.for %j1000 = 0 to 1 {
    affine.for %j1001 = 0 to 1 {
    affine.for %j1002 = 0 to 1 {
    affine.for %j1003 = 0 to 1 {
    affine.for %j1004 = 0 to 1 {
    affine.for %j1005 = 0 to 1 {
    affine.for %j1006 = 0 to 1 {
    affine.for %j1007 = 0 to 1 {
    affine.for %j1008 = 0 to 1 {
    affine.for %j1009 = 0 to 1 {
    affine.for %j1010 = 0 to 1 {
    affine.for %j1011 = 0 to 1 {
    affine.for %j1012 = 0 to 1 {
    affine.for %j1013 = 0 to 1 {
    affine.for %j1014 = 0 to 1 {
    affine.for %j1015 = 0 to 1 {
    affine.for %j1016 = 0 to 1 {
    affine.for %j1017 = 0 to 1 {
    affine.for %j1018 = 0 to 1 {
    affine.for %j1019 = 0 to 1 {
    affine.for %j1020 = 0 to 1 {
    affine.for %j1021 = 0 to 1 {
    affine.for %j1022 = 0 to 1 {
    affine.for %j1023 = 0 to 1 {
    affine.for %j1024 = 0 to 1 {
    affine.for %j1025 = 0 to 1 {
    affine.for %j1026 = 0 to 1 {
    affine.for %j1027 = 0 to 1 {
    affine.for %j1028 = 0 to 1 {
    affine.for %j1029 = 0 to 1 {
    affine.for %j1030 = 0 to 1 {
    affine.for %j1031 = 0 to 1 {
    affine.for %j1032 = 0 to 1 {
    affine.for %j1033 = 0 to 1 {
    affine.for %j1034 = 0 to 1 {
    affine.for %j1035 = 0 to 1 {
    affine.for %j1036 = 0 to 1 {
    affine.for %j1037 = 0 to 1 {
    affine.for %j1038 = 0 to 1 {
    affine.for %j1039 = 0 to 1 {
    affine.for %j1040 = 0 to 1 {
    affine.for %j1041 = 0 to 1 {
    affine.for %j1042 = 0 to 1 {
    affine.for %j1043 = 0 to 1 {
    affine.for %j1044 = 0 to 1 {
    affine.for %j1045 = 0 to 1 {
    affine.for %j1046 = 0 to 1 {
    affine.for %j1047 = 0 to 1 {
    affine.for %j1048 = 0 to 1 {
    affine.for %j1049 = 0 to 1 {
    affine.for %j1050 = 0 to 1 {
    affine.for %j1051 = 0 to 1 {
    affine.for %j1052 = 0 to 1 {
    affine.for %j1053 = 0 to 1 {
    affine.for %j1054 = 0 to 1 {
    affine.for %j1055 = 0 to 1 {
    affine.for %j1056 = 0 to 1 {
    affine.for %j1057 = 0 to 1 {
    affine.for %j1058 = 0 to 1 {
    affine.for %j1059 = 0 to 1 {
    affine.for %j1060 = 0 to 1 {
    affine.for %j1061 = 0 to 1 {
    affine.for %j1062 = 0 to 1 {
    affine.for %j1063 = 0 to 1 {
    affine.for %j1064 = 0 to 1 {
    affine.for %j1065 = 0 to 1 {
    affine.for %j1066 = 0 to 1 {
    affine.for %j1067 = 0 to 1 {
    affine.for %j1068 = 0 to 1 {
    affine.for %j1069 = 0 to 1 {
    affine.for %j1070 = 0 to 1 {
    affine.for %j1071 = 0 to 1 {
    affine.for %j1072 = 0 to 1 {
    affine.for %j1073 = 0 to 1 {
    affine.for %j1074 = 0 to 1 {
    affine.for %j1075 = 0 to 1 {
    affine.for %j1076 = 0 to 1 {
    affine.for %j1077 = 0 to 1 {
    affine.for %j1078 = 0 to 1 {
    affine.for %j1079 = 0 to 1 {
    affine.for %j1080 = 0 to 1 {
    affine.for %j1081 = 0 to 1 {
    affine.for %j1082 = 0 to 1 {
    affine.for %j1083 = 0 to 1 {
    affine.for %j1084 = 0 to 1 {
    affine.for %j1085 = 0 to 1 {
    affine.for %j1086 = 0 to 1 {
    affine.for %j1087 = 0 to 1 {
    affine.for %j1088 = 0 to 1 {
    affine.for %j1089 = 0 to 1 {
    affine.for %j1090 = 0 to 1 {
    affine.for %j1091 = 0 to 1 {
    affine.for %j1092 = 0 to 1 {
    affine.for %j1093 = 0 to 1 {
    affine.for %j1094 = 0 to 1 {
    affine.for %j1095 = 0 to 1 {
    affine.for %j1096 = 0 to 1 {
    affine.for %j1097 = 0 to 1 {
    affine.for %j1098 = 0 to 1 {
    affine.for %j1099 = 0 to 1 {
    affine.for %j1100 = 0 to 1 {
    affine.for %j1101 = 0 to 1 {
    affine.for %j1102 = 0 to 1 {
    affine.for %j1103 = 0 to 1 {
    affine.for %j1104 = 0 to 1 {
    affine.for %j1105 = 0 to 1 {
    affine.for %j1106 = 0 to 1 {
    affine.for %j1107 = 0 to 1 {
    affine.for %j1108 = 0 to 1 {
    affine.for %j1109 = 0 to 1 {
    affine.for %j1110 = 0 to 1 {
    affine.for %j1111 = 0 to 1 {
    affine.for %j1112 = 0 to 1 {
    affine.for %j1113 = 0 to 1 {
    affine.for %j1114 = 0 to 1 {
    affine.for %j1115 = 0 to 1 {
    affine.for %j1116 = 0 to 1 {
    affine.for %j1117 = 0 to 1 {
    affine.for %j1118 = 0 to 1 {
    affine.for %j1119 = 0 to 1 {
    affine.for %j1120 = 0 to 1 {
    affine.for %j1121 = 0 to 1 {
    affine.for %j1122 = 0 to 1 {
    affine.for %j1123 = 0 to 1 {
    affine.for %j1124 = 0 to 1 {
    affine.for %j1125 = 0 to 1 {
    affine.for %j1126 = 0 to 1 {
    affine.for %j1127 = 0 to 1 {
    affine.for %j1128 = 0 to 1 {
    affine.for %j1129 = 0 to 1 {
    affine.for %j1130 = 0 to 1 {
    affine.for %j1131 = 0 to 1 {
    affine.for %j1132 = 0 to 1 {
    affine.for %j1133 = 0 to 1 {
    affine.for %j1134 = 0 to 1 {
    affine.for %j1135 = 0 to 1 {
    affine.for %j1136 = 0 to 1 {
    affine.for %j1137 = 0 to 1 {
    affine.for %j1138 = 0 to 1 {
    affine.for %j1139 = 0 to 1 {
    affine.for %j1140 = 0 to 1 {
    affine.for %j1141 = 0 to 1 {
    affine.for %j1142 = 0 to 1 {
    affine.for %j1143 = 0 to 1 {
    affine.for %j1144 = 0 to 1 {
    affine.for %j1145 = 0 to 1 {
    affine.for %j1146 = 0 to 1 {
    affine.for %j1147 = 0 to 1 {
    affine.for %j1148 = 0 to 1 {
    affine.for %j1149 = 0 to 1 {
    affine.for %j1150 = 0 to 1 {
    affine.for %j1151 = 0 to 1 {
    affine.for %j1152 = 0 to 1 {
    affine.for %j1153 = 0 to 1 {
    affine.for %j1154 = 0 to 1 {
    affine.for %j1155 = 0 to 1 {
    affine.for %j1156 = 0 to 1 {
    affine.for %j1157 = 0 to 1 {
    affine.for %j1158 = 0 to 1 {
    affine.for %j1159 = 0 to 1 {
    affine.for %j1160 = 0 to 1 {
    affine.for %j1161 = 0 to 1 {
    affine.for %j1162 = 0 to 1 {
    affine.for %j1163 = 0 to 1 {
    affine.for %j1164 = 0 to 1 {
    affine.for %j1165 = 0 to 1 {
    affine.for %j1166 = 0 to 1 {
    affine.for %j1167 = 0 to 1 {
    affine.for %j1168 = 0 to 1 {
    affine.for %j1169 = 0 to 1 {
    affine.for %j1170 = 0 to 1 {
    affine.for %j1171 = 0 to 1 {
    affine.for %j1172 = 0 to 1 {
    affine.for %j1173 = 0 to 1 {
    affine.for %j1174 = 0 to 1 {
    affine.for %j1175 = 0 to 1 {
    affine.for %j1176 = 0 to 1 {
    affine.for %j1177 = 0 to 1 {
    affine.for %j1178 = 0 to 1 {
    affine.for %j1179 = 0 to 1 {
    affine.for %j1180 = 0 to 1 {
    affine.for %j1181 = 0 to 1 {
    affine.for %j1182 = 0 to 1 {
    affine.for %j1183 = 0 to 1 {
    affine.for %j1184 = 0 to 1 {
    affine.for %j1185 = 0 to 1 {
    affine.for %j1186 = 0 to 1 {
    affine.for %j1187 = 0 to 1 {
    affine.for %j1188 = 0 to 1 {
    affine.for %j1189 = 0 to 1 {
    affine.for %j1190 = 0 to 1 {
    affine.for %j1191 = 0 to 1 {
    affine.for %j1192 = 0 to 1 {
    affine.for %j1193 = 0 to 1 {
    affine.for %j1194 = 0 to 1 {
    affine.for %j1195 = 0 to 1 {
    affine.for %j1196 = 0 to 1 {
    affine.for %j1197 = 0 to 1 {
    affine.for %j1198 = 0 to 1 {
    affine.for %j1199 = 0 to 1 {
    affine.for %j1200 = 0 to 1 {
    affine.for %j1201 = 0 to 1 {
    affine.for %j1202 = 0 to 1 {
    affine.for %j1203 = 0 to 1 {
    affine.for %j1204 = 0 to 1 {
    affine.for %j1205 = 0 to 1 {
    affine.for %j1206 = 0 to 1 {
    affine.for %j1207 = 0 to 1 {
    affine.for %j1208 = 0 to 1 {
    affine.for %j1209 = 0 to 1 {
    affine.for %j1210 = 0 to 1 {
    affine.for %j1211 = 0 to 1 {
    affine.for %j1212 = 0 to 1 {
    affine.for %j1213 = 0 to 1 {
    affine.for %j1214 = 0 to 1 {
    affine.for %j1215 = 0 to 1 {
    affine.for %j1216 = 0 to 1 {
    affine.for %j1217 = 0 to 1 {
    affine.for %j1218 = 0 to 1 {
    affine.for %j1219 = 0 to 1 {
    affine.for %j1220 = 0 to 1 {
    affine.for %j1221 = 0 to 1 {
    affine.for %j1222 = 0 to 1 {
    affine.for %j1223 = 0 to 1 {
    affine.for %j1224 = 0 to 1 {
    affine.for %j1225 = 0 to 1 {
    affine.for %j1226 = 0 to 1 {
    affine.for %j1227 = 0 to 1 {
    affine.for %j1228 = 0 to 1 {
    affine.for %j1229 = 0 to 1 {
    affine.for %j1230 = 0 to 1 {
    affine.for %j1231 = 0 to 1 {
    affine.for %j1232 = 0 to 1 {
    affine.for %j1233 = 0 to 1 {
    affine.for %j1234 = 0 to 1 {
    affine.for %j1235 = 0 to 1 {
    affine.for %j1236 = 0 to 1 {
    affine.for %j1237 = 0 to 1 {
    affine.for %j1238 = 0 to 1 {
    affine.for %j1239 = 0 to 1 {
    affine.for %j1240 = 0 to 1 {
    affine.for %j1241 = 0 to 1 {
    affine.for %j1242 = 0 to 1 {
    affine.for %j1243 = 0 to 1 {
    affine.for %j1244 = 0 to 1 {
    affine.for %j1245 = 0 to 1 {
    affine.for %j1246 = 0 to 1 {
    affine.for %j1247 = 0 to 1 {
    affine.for %j1248 = 0 to 1 {
    affine.for %j1249 = 0 to 1 {
    affine.for %j1250 = 0 to 1 {
    affine.for %j1251 = 0 to 1 {
    affine.for %j1252 = 0 to 1 {
    affine.for %j1253 = 0 to 1 {
    affine.for %j1254 = 0 to 1 {
    affine.for %j1255 = 0 to 1 {
    affine.for %j1256 = 0 to 1 {
    affine.for %j1257 = 0 to 1 {
    affine.for %j1258 = 0 to 1 {
    affine.for %j1259 = 0 to 1 {
    affine.for %j1260 = 0 to 1 {
    affine.for %j1261 = 0 to 1 {
    affine.for %j1262 = 0 to 1 {
    affine.for %j1263 = 0 to 1 {
    affine.for %j1264 = 0 to 1 {
    affine.for %j1265 = 0 to 1 {
    affine.for %j1266 = 0 to 1 {
    affine.for %j1267 = 0 to 1 {
    affine.for %j1268 = 0 to 1 {
    affine.for %j1269 = 0 to 1 {
    affine.for %j1270 = 0 to 1 {
    affine.for %j1271 = 0 to 1 {
    affine.for %j1272 = 0 to 1 {
    affine.for %j1273 = 0 to 1 {
    affine.for %j1274 = 0 to 1 {
    affine.for %j1275 = 0 to 1 {
    affine.for %j1276 = 0 to 1 {
    affine.for %j1277 = 0 to 1 {
    affine.for %j1278 = 0 to 1 {
    affine.for %j1279 = 0 to 1 {
    affine.for %j1280 = 0 to 1 {
    affine.for %j1281 = 0 to 1 {
    affine.for %j1282 = 0 to 1 {
    affine.for %j1283 = 0 to 1 {
    affine.for %j1284 = 0 to 1 {
    affine.for %j1285 = 0 to 1 {
    affine.for %j1286 = 0 to 1 {
    affine.for %j1287 = 0 to 1 {
    affine.for %j1288 = 0 to 1 {
    affine.for %j1289 = 0 to 1 {
    affine.for %j1290 = 0 to 1 {
    affine.for %j1291 = 0 to 1 {
    affine.for %j1292 = 0 to 1 {
    affine.for %j1293 = 0 to 1 {
    affine.for %j1294 = 0 to 1 {
    affine.for %j1295 = 0 to 1 {
    affine.for %j1296 = 0 to 1 {
    affine.for %j1297 = 0 to 1 {
    affine.for %j1298 = 0 to 1 {
    affine.for %j1299 = 0 to 1 {
    affine.for %j1300 = 0 to 1 {
    affine.for %j1301 = 0 to 1 {
    affine.for %j1302 = 0 to 1 {
    affine.for %j1303 = 0 to 1 {
    affine.for %j1304 = 0 to 1 {
    affine.for %j1305 = 0 to 1 {
    affine.for %j1306 = 0 to 1 {
    affine.for %j1307 = 0 to 1 {
    affine.for %j1308 = 0 to 1 {
    affine.for %j1309 = 0 to 1 {
    affine.for %j1310 = 0 to 1 {
    affine.for %j1311 = 0 to 1 {
    affine.for %j1312 = 0 to 1 {
    affine.for %j1313 = 0 to 1 {
    affine.for %j1314 = 0 to 1 {
    affine.for %j1315 = 0 to 1 {
    affine.for %j1316 = 0 to 1 {
    affine.for %j1317 = 0 to 1 {
    affine.for %j1318 = 0 to 1 {
    affine.for %j1319 = 0 to 1 {
    affine.for %j1320 = 0 to 1 {
    affine.for %j1321 = 0 to 1 {
    affine.for %j1322 = 0 to 1 {
    affine.for %j1323 = 0 to 1 {
    affine.for %j1324 = 0 to 1 {
    affine.for %j1325 = 0 to 1 {
    affine.for %j1326 = 0 to 1 {
    affine.for %j1327 = 0 to 1 {
    affine.for %j1328 = 0 to 1 {
    affine.for %j1329 = 0 to 1 {
    affine.for %j1330 = 0 to 1 {
    affine.for %j1331 = 0 to 1 {
    affine.for %j1332 = 0 to 1 {
    affine.for %j1333 = 0 to 1 {
    affine.for %j1334 = 0 to 1 {
    affine.for %j1335 = 0 to 1 {
    affine.for %j1336 = 0 to 1 {
    affine.for %j1337 = 0 to 1 {
    affine.for %j1338 = 0 to 1 {
    affine.for %j1339 = 0 to 1 {
    affine.for %j1340 = 0 to 1 {
    affine.for %j1341 = 0 to 1 {
    affine.for %j1342 = 0 to 1 {
    affine.for %j1343 = 0 to 1 {
    affine.for %j1344 = 0 to 1 {
    affine.for %j1345 = 0 to 1 {
    affine.for %j1346 = 0 to 1 {
    affine.for %j1347 = 0 to 1 {
    affine.for %j1348 = 0 to 1 {
    affine.for %j1349 = 0 to 1 {
    affine.for %j1350 = 0 to 1 {
    affine.for %j1351 = 0 to 1 {
    affine.for %j1352 = 0 to 1 {
    affine.for %j1353 = 0 to 1 {
    affine.for %j1354 = 0 to 1 {
    affine.for %j1355 = 0 to 1 {
    affine.for %j1356 = 0 to 1 {
    affine.for %j1357 = 0 to 1 {
    affine.for %j1358 = 0 to 1 {
    affine.for %j1359 = 0 to 1 {
    affine.for %j1360 = 0 to 1 {
    affine.for %j1361 = 0 to 1 {
    affine.for %j1362 = 0 to 1 {
    affine.for %j1363 = 0 to 1 {
    affine.for %j1364 = 0 to 1 {
    affine.for %j1365 = 0 to 1 {
    affine.for %j1366 = 0 to 1 {
    affine.for %j1367 = 0 to 1 {
    affine.for %j1368 = 0 to 1 {
    affine.for %j1369 = 0 to 1 {
    affine.for %j1370 = 0 to 1 {
    affine.for %j1371 = 0 to 1 {
    affine.for %j1372 = 0 to 1 {
    affine.for %j1373 = 0 to 1 {
    affine.for %j1374 = 0 to 1 {
    affine.for %j1375 = 0 to 1 {
    affine.for %j1376 = 0 to 1 {
    affine.for %j1377 = 0 to 1 {
    affine.for %j1378 = 0 to 1 {
    affine.for %j1379 = 0 to 1 {
    affine.for %j1380 = 0 to 1 {
    affine.for %j1381 = 0 to 1 {
    affine.for %j1382 = 0 to 1 {
    affine.for %j1383 = 0 to 1 {
    affine.for %j1384 = 0 to 1 {
    affine.for %j1385 = 0 to 1 {
    affine.for %j1386 = 0 to 1 {
    affine.for %j1387 = 0 to 1 {
    affine.for %j1388 = 0 to 1 {
    affine.for %j1389 = 0 to 1 {
    affine.for %j1390 = 0 to 1 {
    affine.for %j1391 = 0 to 1 {
    affine.for %j1392 = 0 to 1 {
    affine.for %j1393 = 0 to 1 {
    affine.for %j1394 = 0 to 1 {
    affine.for %j1395 = 0 to 1 {
    affine.for %j1396 = 0 to 1 {
    affine.for %j1397 = 0 to 1 {
    affine.for %j1398 = 0 to 1 {
    affine.for %j1399 = 0 to 1 {
    affine.for %j1400 = 0 to 1 {
    affine.for %j1401 = 0 to 1 {
    affine.for %j1402 = 0 to 1 {
    affine.for %j1403 = 0 to 1 {
    affine.for %j1404 = 0 to 1 {
    affine.for %j1405 = 0 to 1 {
    affine.for %j1406 = 0 to 1 {
    affine.for %j1407 = 0 to 1 {
    affine.for %j1408 = 0 to 1 {
    affine.for %j1409 = 0 to 1 {
    affine.for %j1410 = 0 to 1 {
    affine.for %j1411 = 0 to 1 {
    affine.for %j1412 = 0 to 1 {
    affine.for %j1413 = 0 to 1 {
    affine.for %j1414 = 0 to 1 {
    affine.for %j1415 = 0 to 1 {
    affine.for %j1416 = 0 to 1 {
    affine.for %j1417 = 0 to 1 {
    affine.for %j1418 = 0 to 1 {
    affine.for %j1419 = 0 to 1 {
    affine.for %j1420 = 0 to 1 {
    affine.for %j1421 = 0 to 1 {
    affine.for %j1422 = 0 to 1 {
    affine.for %j1423 = 0 to 1 {
    affine.for %j1424 = 0 to 1 {
    affine.for %j1425 = 0 to 1 {
    affine.for %j1426 = 0 to 1 {
    affine.for %j1427 = 0 to 1 {
    affine.for %j1428 = 0 to 1 {
    affine.for %j1429 = 0 to 1 {
    affine.for %j1430 = 0 to 1 {
    affine.for %j1431 = 0 to 1 {
    affine.for %j1432 = 0 to 1 {
    affine.for %j1433 = 0 to 1 {
    affine.for %j1434 = 0 to 1 {
    affine.for %j1435 = 0 to 1 {
    affine.for %j1436 = 0 to 1 {
    affine.for %j1437 = 0 to 1 {
    affine.for %j1438 = 0 to 1 {
    affine.for %j1439 = 0 to 1 {
    affine.for %j1440 = 0 to 1 {
    affine.for %j1441 = 0 to 1 {
    affine.for %j1442 = 0 to 1 {
    affine.for %j1443 = 0 to 1 {
    affine.for %j1444 = 0 to 1 {
    affine.for %j1445 = 0 to 1 {
    affine.for %j1446 = 0 to 1 {
    affine.for %j1447 = 0 to 1 {
    affine.for %j1448 = 0 to 1 {
    affine.for %j1449 = 0 to 1 {
    affine.for %j1450 = 0 to 1 {
    affine.for %j1451 = 0 to 1 {
    affine.for %j1452 = 0 to 1 {
    affine.for %j1453 = 0 to 1 {
    affine.for %j1454 = 0 to 1 {
    affine.for %j1455 = 0 to 1 {
    affine.for %j1456 = 0 to 1 {
    affine.for %j1457 = 0 to 1 {
    affine.for %j1458 = 0 to 1 {
    affine.for %j1459 = 0 to 1 {
    affine.for %j1460 = 0 to 1 {
    affine.for %j1461 = 0 to 1 {
    affine.for %j1462 = 0 to 1 {
    affine.for %j1463 = 0 to 1 {
    affine.for %j1464 = 0 to 1 {
    affine.for %j1465 = 0 to 1 {
    affine.for %j1466 = 0 to 1 {
    affine.for %j1467 = 0 to 1 {
    affine.for %j1468 = 0 to 1 {
    affine.for %j1469 = 0 to 1 {
    affine.for %j1470 = 0 to 1 {
    affine.for %j1471 = 0 to 1 {
    affine.for %j1472 = 0 to 1 {
    affine.for %j1473 = 0 to 1 {
    affine.for %j1474 = 0 to 1 {
    affine.for %j1475 = 0 to 1 {
    affine.for %j1476 = 0 to 1 {
    affine.for %j1477 = 0 to 1 {
    affine.for %j1478 = 0 to 1 {
    affine.for %j1479 = 0 to 1 {
    affine.for %j1480 = 0 to 1 {
    affine.for %j1481 = 0 to 1 {
    affine.for %j1482 = 0 to 1 {
    affine.for %j1483 = 0 to 1 {
    affine.for %j1484 = 0 to 1 {
    affine.for %j1485 = 0 to 1 {
    affine.for %j1486 = 0 to 1 {
    affine.for %j1487 = 0 to 1 {
    affine.for %j1488 = 0 to 1 {
    affine.for %j1489 = 0 to 1 {
    affine.for %j1490 = 0 to 1 {
    affine.for %j1491 = 0 to 1 {
    affine.for %j1492 = 0 to 1 {
    affine.for %j1493 = 0 to 1 {
    affine.for %j1494 = 0 to 1 {
    affine.for %j1495 = 0 to 1 {
    affine.for %j1496 = 0 to 1 {
    affine.for %j1497 = 0 to 1 {
    affine.for %j1498 = 0 to 1 {
    affine.for %j1499 = 0 to 1 {
    affine.for %j1500 = 0 to 1 {
    affine.for %j1501 = 0 to 1 {
    affine.for %j1502 = 0 to 1 {
    affine.for %j1503 = 0 to 1 {
    affine.for %j1504 = 0 to 1 {
    affine.for %j1505 = 0 to 1 {
    affine.for %j1506 = 0 to 1 {
    affine.for %j1507 = 0 to 1 {
    affine.for %j1508 = 0 to 1 {
    affine.for %j1509 = 0 to 1 {
    affine.for %j1510 = 0 to 1 {
    affine.for %j1511 = 0 to 1 {
    affine.for %j1512 = 0 to 1 {
    affine.for %j1513 = 0 to 1 {
    affine.for %j1514 = 0 to 1 {
    affine.for %j1515 = 0 to 1 {
    affine.for %j1516 = 0 to 1 {
    affine.for %j1517 = 0 to 1 {
    affine.for %j1518 = 0 to 1 {
    affine.for %j1519 = 0 to 1 {
    affine.for %j1520 = 0 to 1 {
    affine.for %j1521 = 0 to 1 {
    affine.for %j1522 = 0 to 1 {
    affine.for %j1523 = 0 to 1 {
    affine.for %j1524 = 0 to 1 {
    affine.for %j1525 = 0 to 1 {
    affine.for %j1526 = 0 to 1 {
    affine.for %j1527 = 0 to 1 {
    affine.for %j1528 = 0 to 1 {
    affine.for %j1529 = 0 to 1 {
    affine.for %j1530 = 0 to 1 {
    affine.for %j1531 = 0 to 1 {
    affine.for %j1532 = 0 to 1 {
    affine.for %j1533 = 0 to 1 {
    affine.for %j1534 = 0 to 1 {
    affine.for %j1535 = 0 to 1 {
    affine.for %j1536 = 0 to 1 {
    affine.for %j1537 = 0 to 1 {
    affine.for %j1538 = 0 to 1 {
    affine.for %j1539 = 0 to 1 {
    affine.for %j1540 = 0 to 1 {
    affine.for %j1541 = 0 to 1 {
    affine.for %j1542 = 0 to 1 {
    affine.for %j1543 = 0 to 1 {
    affine.for %j1544 = 0 to 1 {
    affine.for %j1545 = 0 to 1 {
    affine.for %j1546 = 0 to 1 {
    affine.for %j1547 = 0 to 1 {
    affine.for %j1548 = 0 to 1 {
    affine.for %j1549 = 0 to 1 {
    affine.for %j1550 = 0 to 1 {
    affine.for %j1551 = 0 to 1 {
    affine.for %j1552 = 0 to 1 {
    affine.for %j1553 = 0 to 1 {
    affine.for %j1554 = 0 to 1 {
    affine.for %j1555 = 0 to 1 {
    affine.for %j1556 = 0 to 1 {
    affine.for %j1557 = 0 to 1 {
    affine.for %j1558 = 0 to 1 {
    affine.for %j1559 = 0 to 1 {
    affine.for %j1560 = 0 to 1 {
    affine.for %j1561 = 0 to 1 {
    affine.for %j1562 = 0 to 1 {
    affine.for %j1563 = 0 to 1 {
    affine.for %j1564 = 0 to 1 {
    affine.for %j1565 = 0 to 1 {
    affine.for %j1566 = 0 to 1 {
    affine.for %j1567 = 0 to 1 {
    affine.for %j1568 = 0 to 1 {
    affine.for %j1569 = 0 to 1 {
    affine.for %j1570 = 0 to 1 {
    affine.for %j1571 = 0 to 1 {
    affine.for %j1572 = 0 to 1 {
    affine.for %j1573 = 0 to 1 {
    affine.for %j1574 = 0 to 1 {
    affine.for %j1575 = 0 to 1 {
    affine.for %j1576 = 0 to 1 {
    affine.for %j1577 = 0 to 1 {
    affine.for %j1578 = 0 to 1 {
    affine.for %j1579 = 0 to 1 {
    affine.for %j1580 = 0 to 1 {
    affine.for %j1581 = 0 to 1 {
    affine.for %j1582 = 0 to 1 {
    affine.for %j1583 = 0 to 1 {
    affine.for %j1584 = 0 to 1 {
    affine.for %j1585 = 0 to 1 {
    affine.for %j1586 = 0 to 1 {
    affine.for %j1587 = 0 to 1 {
    affine.for %j1588 = 0 to 1 {
    affine.for %j1589 = 0 to 1 {
    affine.for %j1590 = 0 to 1 {
    affine.for %j1591 = 0 to 1 {
    affine.for %j1592 = 0 to 1 {
    affine.for %j1593 = 0 to 1 {
    affine.for %j1594 = 0 to 1 {
    affine.for %j1595 = 0 to 1 {
    affine.for %j1596 = 0 to 1 {
    affine.for %j1597 = 0 to 1 {
    affine.for %j1598 = 0 to 1 {
    affine.for %j1599 = 0 to 1 {
    affine.for %j1600 = 0 to 1 {
    affine.for %j1601 = 0 to 1 {
    affine.for %j1602 = 0 to 1 {
    affine.for %j1603 = 0 to 1 {
    affine.for %j1604 = 0 to 1 {
    affine.for %j1605 = 0 to 1 {
    affine.for %j1606 = 0 to 1 {
    affine.for %j1607 = 0 to 1 {
    affine.for %j1608 = 0 to 1 {
    affine.for %j1609 = 0 to 1 {
    affine.for %j1610 = 0 to 1 {
    affine.for %j1611 = 0 to 1 {
    affine.for %j1612 = 0 to 1 {
    affine.for %j1613 = 0 to 1 {
    affine.for %j1614 = 0 to 1 {
    affine.for %j1615 = 0 to 1 {
    affine.for %j1616 = 0 to 1 {
    affine.for %j1617 = 0 to 1 {
    affine.for %j1618 = 0 to 1 {
    affine.for %j1619 = 0 to 1 {
    affine.for %j1620 = 0 to 1 {
    affine.for %j1621 = 0 to 1 {
    affine.for %j1622 = 0 to 1 {
    affine.for %j1623 = 0 to 1 {
    affine.for %j1624 = 0 to 1 {
    affine.for %j1625 = 0 to 1 {
    affine.for %j1626 = 0 to 1 {
    affine.for %j1627 = 0 to 1 {
    affine.for %j1628 = 0 to 1 {
    affine.for %j1629 = 0 to 1 {
    affine.for %j1630 = 0 to 1 {
    affine.for %j1631 = 0 to 1 {
    affine.for %j1632 = 0 to 1 {
    affine.for %j1633 = 0 to 1 {
    affine.for %j1634 = 0 to 1 {
    affine.for %j1635 = 0 to 1 {
    affine.for %j1636 = 0 to 1 {
    affine.for %j1637 = 0 to 1 {
    affine.for %j1638 = 0 to 1 {
    affine.for %j1639 = 0 to 1 {
    affine.for %j1640 = 0 to 1 {
    affine.for %j1641 = 0 to 1 {
    affine.for %j1642 = 0 to 1 {
    affine.for %j1643 = 0 to 1 {
    affine.for %j1644 = 0 to 1 {
    affine.for %j1645 = 0 to 1 {
    affine.for %j1646 = 0 to 1 {
    affine.for %j1647 = 0 to 1 {
    affine.for %j1648 = 0 to 1 {
    affine.for %j1649 = 0 to 1 {
    affine.for %j1650 = 0 to 1 {
    affine.for %j1651 = 0 to 1 {
    affine.for %j1652 = 0 to 1 {
    affine.for %j1653 = 0 to 1 {
    affine.for %j1654 = 0 to 1 {
    affine.for %j1655 = 0 to 1 {
    affine.for %j1656 = 0 to 1 {
    affine.for %j1657 = 0 to 1 {
    affine.for %j1658 = 0 to 1 {
    affine.for %j1659 = 0 to 1 {
    affine.for %j1660 = 0 to 1 {
    affine.for %j1661 = 0 to 1 {
    affine.for %j1662 = 0 to 1 {
    affine.for %j1663 = 0 to 1 {
    affine.for %j1664 = 0 to 1 {
    affine.for %j1665 = 0 to 1 {
    affine.for %j1666 = 0 to 1 {
    affine.for %j1667 = 0 to 1 {
    affine.for %j1668 = 0 to 1 {
    affine.for %j1669 = 0 to 1 {
    affine.for %j1670 = 0 to 1 {
    affine.for %j1671 = 0 to 1 {
    affine.for %j1672 = 0 to 1 {
    affine.for %j1673 = 0 to 1 {
    affine.for %j1674 = 0 to 1 {
    affine.for %j1675 = 0 to 1 {
    affine.for %j1676 = 0 to 1 {
    affine.for %j1677 = 0 to 1 {
    affine.for %j1678 = 0 to 1 {
    affine.for %j1679 = 0 to 1 {
    affine.for %j1680 = 0 to 1 {
    affine.for %j1681 = 0 to 1 {
    affine.for %j1682 = 0 to 1 {
    affine.for %j1683 = 0 to 1 {
    affine.for %j1684 = 0 to 1 {
    affine.for %j1685 = 0 to 1 {
    affine.for %j1686 = 0 to 1 {
    affine.for %j1687 = 0 to 1 {
    affine.for %j1688 = 0 to 1 {
    affine.for %j1689 = 0 to 1 {
    affine.for %j1690 = 0 to 1 {
    affine.for %j1691 = 0 to 1 {
    affine.for %j1692 = 0 to 1 {
    affine.for %j1693 = 0 to 1 {
    affine.for %j1694 = 0 to 1 {
    affine.for %j1695 = 0 to 1 {
    affine.for %j1696 = 0 to 1 {
    affine.for %j1697 = 0 to 1 {
    affine.for %j1698 = 0 to 1 {
    affine.for %j1699 = 0 to 1 {
    affine.for %j1700 = 0 to 1 {
    affine.for %j1701 = 0 to 1 {
    affine.for %j1702 = 0 to 1 {
    affine.for %j1703 = 0 to 1 {
    affine.for %j1704 = 0 to 1 {
    affine.for %j1705 = 0 to 1 {
    affine.for %j1706 = 0 to 1 {
    affine.for %j1707 = 0 to 1 {
    affine.for %j1708 = 0 to 1 {
    affine.for %j1709 = 0 to 1 {
    affine.for %j1710 = 0 to 1 {
    affine.for %j1711 = 0 to 1 {
    affine.for %j1712 = 0 to 1 {
    affine.for %j1713 = 0 to 1 {
    affine.for %j1714 = 0 to 1 {
    affine.for %j1715 = 0 to 1 {
    affine.for %j1716 = 0 to 1 {
    affine.for %j1717 = 0 to 1 {
    affine.for %j1718 = 0 to 1 {
    affine.for %j1719 = 0 to 1 {
    affine.for %j1720 = 0 to 1 {
    affine.for %j1721 = 0 to 1 {
    affine.for %j1722 = 0 to 1 {
    affine.for %j1723 = 0 to 1 {
    affine.for %j1724 = 0 to 1 {
    affine.for %j1725 = 0 to 1 {
    affine.for %j1726 = 0 to 1 {
    affine.for %j1727 = 0 to 1 {
    affine.for %j1728 = 0 to 1 {
    affine.for %j1729 = 0 to 1 {
    affine.for %j1730 = 0 to 1 {
    affine.for %j1731 = 0 to 1 {
    affine.for %j1732 = 0 to 1 {
    affine.for %j1733 = 0 to 1 {
    affine.for %j1734 = 0 to 1 {
    affine.for %j1735 = 0 to 1 {
    affine.for %j1736 = 0 to 1 {
    affine.for %j1737 = 0 to 1 {
    affine.for %j1738 = 0 to 1 {
    affine.for %j1739 = 0 to 1 {
    affine.for %j1740 = 0 to 1 {
    affine.for %j1741 = 0 to 1 {
    affine.for %j1742 = 0 to 1 {
    affine.for %j1743 = 0 to 1 {
    affine.for %j1744 = 0 to 1 {
    affine.for %j1745 = 0 to 1 {
    affine.for %j1746 = 0 to 1 {
    affine.for %j1747 = 0 to 1 {
    affine.for %j1748 = 0 to 1 {
    affine.for %j1749 = 0 to 1 {
    affine.for %j1750 = 0 to 1 {
    affine.for %j1751 = 0 to 1 {
    affine.for %j1752 = 0 to 1 {
    affine.for %j1753 = 0 to 1 {
    affine.for %j1754 = 0 to 1 {
    affine.for %j1755 = 0 to 1 {
    affine.for %j1756 = 0 to 1 {
    affine.for %j1757 = 0 to 1 {
    affine.for %j1758 = 0 to 1 {
    affine.for %j1759 = 0 to 1 {
    affine.for %j1760 = 0 to 1 {
    affine.for %j1761 = 0 to 1 {
    affine.for %j1762 = 0 to 1 {
    affine.for %j1763 = 0 to 1 {
    affine.for %j1764 = 0 to 1 {
    affine.for %j1765 = 0 to 1 {
    affine.for %j1766 = 0 to 1 {
    affine.for %j1767 = 0 to 1 {
    affine.for %j1768 = 0 to 1 {
    affine.for %j1769 = 0 to 1 {
    affine.for %j1770 = 0 to 1 {
    affine.for %j1771 = 0 to 1 {
    affine.for %j1772 = 0 to 1 {
    affine.for %j1773 = 0 to 1 {
    affine.for %j1774 = 0 to 1 {
    affine.for %j1775 = 0 to 1 {
    affine.for %j1776 = 0 to 1 {
    affine.for %j1777 = 0 to 1 {
    affine.for %j1778 = 0 to 1 {
    affine.for %j1779 = 0 to 1 {
    affine.for %j1780 = 0 to 1 {
    affine.for %j1781 = 0 to 1 {
    affine.for %j1782 = 0 to 1 {
    affine.for %j1783 = 0 to 1 {
    affine.for %j1784 = 0 to 1 {
    affine.for %j1785 = 0 to 1 {
    affine.for %j1786 = 0 to 1 {
    affine.for %j1787 = 0 to 1 {
    affine.for %j1788 = 0 to 1 {
    affine.for %j1789 = 0 to 1 {
    affine.for %j1790 = 0 to 1 {
    affine.for %j1791 = 0 to 1 {
    affine.for %j1792 = 0 to 1 {
    affine.for %j1793 = 0 to 1 {
    affine.for %j1794 = 0 to 1 {
    affine.for %j1795 = 0 to 1 {
    affine.for %j1796 = 0 to 1 {
    affine.for %j1797 = 0 to 1 {
    affine.for %j1798 = 0 to 1 {
    affine.for %j1799 = 0 to 1 {
    affine.for %j1800 = 0 to 1 {
    affine.for %j1801 = 0 to 1 {
    affine.for %j1802 = 0 to 1 {
    affine.for %j1803 = 0 to 1 {
    affine.for %j1804 = 0 to 1 {
    affine.for %j1805 = 0 to 1 {
    affine.for %j1806 = 0 to 1 {
    affine.for %j1807 = 0 to 1 {
    affine.for %j1808 = 0 to 1 {
    affine.for %j1809 = 0 to 1 {
    affine.for %j1810 = 0 to 1 {
    affine.for %j1811 = 0 to 1 {
    affine.for %j1812 = 0 to 1 {
    affine.for %j1813 = 0 to 1 {
    affine.for %j1814 = 0 to 1 {
    affine.for %j1815 = 0 to 1 {
    affine.for %j1816 = 0 to 1 {
    affine.for %j1817 = 0 to 1 {
    affine.for %j1818 = 0 to 1 {
    affine.for %j1819 = 0 to 1 {
    affine.for %j1820 = 0 to 1 {
    affine.for %j1821 = 0 to 1 {
    affine.for %j1822 = 0 to 1 {
    affine.for %j1823 = 0 to 1 {
    affine.for %j1824 = 0 to 1 {
    affine.for %j1825 = 0 to 1 {
    affine.for %j1826 = 0 to 1 {
    affine.for %j1827 = 0 to 1 {
    affine.for %j1828 = 0 to 1 {
    affine.for %j1829 = 0 to 1 {
    affine.for %j1830 = 0 to 1 {
    affine.for %j1831 = 0 to 1 {
    affine.for %j1832 = 0 to 1 {
    affine.for %j1833 = 0 to 1 {
    affine.for %j1834 = 0 to 1 {
    affine.for %j1835 = 0 to 1 {
    affine.for %j1836 = 0 to 1 {
    affine.for %j1837 = 0 to 1 {
    affine.for %j1838 = 0 to 1 {
    affine.for %j1839 = 0 to 1 {
    affine.for %j1840 = 0 to 1 {
    affine.for %j1841 = 0 to 1 {
    affine.for %j1842 = 0 to 1 {
    affine.for %j1843 = 0 to 1 {
    affine.for %j1844 = 0 to 1 {
    affine.for %j1845 = 0 to 1 {
    affine.for %j1846 = 0 to 1 {
    affine.for %j1847 = 0 to 1 {
    affine.for %j1848 = 0 to 1 {
    affine.for %j1849 = 0 to 1 {
    affine.for %j1850 = 0 to 1 {
    affine.for %j1851 = 0 to 1 {
    affine.for %j1852 = 0 to 1 {
    affine.for %j1853 = 0 to 1 {
    affine.for %j1854 = 0 to 1 {
    affine.for %j1855 = 0 to 1 {
    affine.for %j1856 = 0 to 1 {
    affine.for %j1857 = 0 to 1 {
    affine.for %j1858 = 0 to 1 {
    affine.for %j1859 = 0 to 1 {
    affine.for %j1860 = 0 to 1 {
    affine.for %j1861 = 0 to 1 {
    affine.for %j1862 = 0 to 1 {
    affine.for %j1863 = 0 to 1 {
    affine.for %j1864 = 0 to 1 {
    affine.for %j1865 = 0 to 1 {
    affine.for %j1866 = 0 to 1 {
    affine.for %j1867 = 0 to 1 {
    affine.for %j1868 = 0 to 1 {
    affine.for %j1869 = 0 to 1 {
    affine.for %j1870 = 0 to 1 {
    affine.for %j1871 = 0 to 1 {
    affine.for %j1872 = 0 to 1 {
    affine.for %j1873 = 0 to 1 {
    affine.for %j1874 = 0 to 1 {
    affine.for %j1875 = 0 to 1 {
    affine.for %j1876 = 0 to 1 {
    affine.for %j1877 = 0 to 1 {
    affine.for %j1878 = 0 to 1 {
    affine.for %j1879 = 0 to 1 {
    affine.for %j1880 = 0 to 1 {
    affine.for %j1881 = 0 to 1 {
    affine.for %j1882 = 0 to 1 {
    affine.for %j1883 = 0 to 1 {
    affine.for %j1884 = 0 to 1 {
    affine.for %j1885 = 0 to 1 {
    affine.for %j1886 = 0 to 1 {
    affine.for %j1887 = 0 to 1 {
    affine.for %j1888 = 0 to 1 {
    affine.for %j1889 = 0 to 1 {
    affine.for %j1890 = 0 to 1 {
    affine.for %j1891 = 0 to 1 {
    affine.for %j1892 = 0 to 1 {
    affine.for %j1893 = 0 to 1 {
    affine.for %j1894 = 0 to 1 {
    affine.for %j1895 = 0 to 1 {
    affine.for %j1896 = 0 to 1 {
    affine.for %j1897 = 0 to 1 {
    affine.for %j1898 = 0 to 1 {
    affine.for %j1899 = 0 to 1 {
    affine.for %j1900 = 0 to 1 {
    affine.for %j1901 = 0 to 1 {
    affine.for %j1902 = 0 to 1 {
    affine.for %j1903 = 0 to 1 {
    affine.for %j1904 = 0 to 1 {
    affine.for %j1905 = 0 to 1 {
    affine.for %j1906 = 0 to 1 {
    affine.for %j1907 = 0 to 1 {
    affine.for %j1908 = 0 to 1 {
    affine.for %j1909 = 0 to 1 {
    affine.for %j1910 = 0 to 1 {
    affine.for %j1911 = 0 to 1 {
    affine.for %j1912 = 0 to 1 {
    affine.for %j1913 = 0 to 1 {
    affine.for %j1914 = 0 to 1 {
    affine.for %j1915 = 0 to 1 {
    affine.for %j1916 = 0 to 1 {
    affine.for %j1917 = 0 to 1 {
    affine.for %j1918 = 0 to 1 {
    affine.for %j1919 = 0 to 1 {
    affine.for %j1920 = 0 to 1 {
    affine.for %j1921 = 0 to 1 {
    affine.for %j1922 = 0 to 1 {
    affine.for %j1923 = 0 to 1 {
    affine.for %j1924 = 0 to 1 {
    affine.for %j1925 = 0 to 1 {
    affine.for %j1926 = 0 to 1 {
    affine.for %j1927 = 0 to 1 {
    affine.for %j1928 = 0 to 1 {
    affine.for %j1929 = 0 to 1 {
    affine.for %j1930 = 0 to 1 {
    affine.for %j1931 = 0 to 1 {
    affine.for %j1932 = 0 to 1 {
    affine.for %j1933 = 0 to 1 {
    affine.for %j1934 = 0 to 1 {
    affine.for %j1935 = 0 to 1 {
    affine.for %j1936 = 0 to 1 {
    affine.for %j1937 = 0 to 1 {
    affine.for %j1938 = 0 to 1 {
    affine.for %j1939 = 0 to 1 {
    affine.for %j1940 = 0 to 1 {
    affine.for %j1941 = 0 to 1 {
    affine.for %j1942 = 0 to 1 {
    affine.for %j1943 = 0 to 1 {
    affine.for %j1944 = 0 to 1 {
    affine.for %j1945 = 0 to 1 {
    affine.for %j1946 = 0 to 1 {
    affine.for %j1947 = 0 to 1 {
    affine.for %j1948 = 0 to 1 {
    affine.for %j1949 = 0 to 1 {
    affine.for %j1950 = 0 to 1 {
    affine.for %j1951 = 0 to 1 {
    affine.for %j1952 = 0 to 1 {
    affine.for %j1953 = 0 to 1 {
    affine.for %j1954 = 0 to 1 {
    affine.for %j1955 = 0 to 1 {
    affine.for %j1956 = 0 to 1 {
    affine.for %j1957 = 0 to 1 {
    affine.for %j1958 = 0 to 1 {
    affine.for %j1959 = 0 to 1 {
    affine.for %j1960 = 0 to 1 {
    affine.for %j1961 = 0 to 1 {
    affine.for %j1962 = 0 to 1 {
    affine.for %j1963 = 0 to 1 {
    affine.for %j1964 = 0 to 1 {
    affine.for %j1965 = 0 to 1 {
    affine.for %j1966 = 0 to 1 {
    affine.for %j1967 = 0 to 1 {
    affine.for %j1968 = 0 to 1 {
    affine.for %j1969 = 0 to 1 {
    affine.for %j1970 = 0 to 1 {
    affine.for %j1971 = 0 to 1 {
    affine.for %j1972 = 0 to 1 {
    affine.for %j1973 = 0 to 1 {
    affine.for %j1974 = 0 to 1 {
    affine.for %j1975 = 0 to 1 {
    affine.for %j1976 = 0 to 1 {
    affine.for %j1977 = 0 to 1 {
    affine.for %j1978 = 0 to 1 {
    affine.for %j1979 = 0 to 1 {
    affine.for %j1980 = 0 to 1 {
    affine.for %j1981 = 0 to 1 {
    affine.for %j1982 = 0 to 1 {
    affine.for %j1983 = 0 to 1 {
    affine.for %j1984 = 0 to 1 {
    affine.for %j1985 = 0 to 1 {
    affine.for %j1986 = 0 to 1 {
    affine.for %j1987 = 0 to 1 {
    affine.for %j1988 = 0 to 1 {
    affine.for %j1989 = 0 to 1 {
    affine.for %j1990 = 0 to 1 {
    affine.for %j1991 = 0 to 1 {
    affine.for %j1992 = 0 to 1 {
    affine.for %j1993 = 0 to 1 {
    affine.for %j1994 = 0 to 1 {
    affine.for %j1995 = 0 to 1 {
    affine.for %j1996 = 0 to 1 {
    affine.for %j1997 = 0 to 1 {
    affine.for %j1998 = 0 to 1 {
    affine.for %j1999 = 0 to 1 {
    affine.for %j2000 = 0 to 1 {
    affine.for %j2001 = 0 to 1 {
    affine.for %j2002 = 0 to 1 {
    affine.for %j2003 = 0 to 1 {
    affine.for %j2004 = 0 to 1 {
    affine.for %j2005 = 0 to 1 {
    affine.for %j2006 = 0 to 1 {
    affine.for %j2007 = 0 to 1 {
    affine.for %j2008 = 0 to 1 {
    affine.for %j2009 = 0 to 1 {
    affine.for %j2010 = 0 to 1 {
    affine.for %j2011 = 0 to 1 {
    affine.for %j2012 = 0 to 1 {
    affine.for %j2013 = 0 to 1 {
    affine.for %j2014 = 0 to 1 {
    affine.for %j2015 = 0 to 1 {
    affine.for %j2016 = 0 to 1 {
    affine.for %j2017 = 0 to 1 {
    affine.for %j2018 = 0 to 1 {
    affine.for %j2019 = 0 to 1 {
    affine.for %j2020 = 0 to 1 {
    affine.for %j2021 = 0 to 1 {
    affine.for %j2022 = 0 to 1 {
    affine.for %j2023 = 0 to 1 {
    affine.for %j2024 = 0 to 1 {
    affine.for %j2025 = 0 to 1 {
    affine.for %j2026 = 0 to 1 {
    affine.for %j2027 = 0 to 1 {
    affine.for %j2028 = 0 to 1 {
    affine.for %j2029 = 0 to 1 {
    affine.for %j2030 = 0 to 1 {
    affine.for %j2031 = 0 to 1 {
    affine.for %j2032 = 0 to 1 {
    affine.for %j2033 = 0 to 1 {
    affine.for %j2034 = 0 to 1 {
    affine.for %j2035 = 0 to 1 {
    affine.for %j2036 = 0 to 1 {
    affine.for %j2037 = 0 to 1 {
    affine.for %j2038 = 0 to 1 {
    affine.for %j2039 = 0 to 1 {
    affine.for %j2040 = 0 to 1 {
    affine.for %j2041 = 0 to 1 {
    affine.for %j2042 = 0 to 1 {
    affine.for %j2043 = 0 to 1 {
    affine.for %j2044 = 0 to 1 {
    affine.for %j2045 = 0 to 1 {
    affine.for %j2046 = 0 to 1 {
    affine.for %j2047 = 0 to 1 {
    affine.for %j2048 = 0 to 1 {
    affine.for %j2049 = 0 to 1 {
    affine.for %j2050 = 0 to 1 {
    affine.for %j2051 = 0 to 1 {
    affine.for %j2052 = 0 to 1 {
    affine.for %j2053 = 0 to 1 {
    affine.for %j2054 = 0 to 1 {
    affine.for %j2055 = 0 to 1 {
    affine.for %j2056 = 0 to 1 {
    affine.for %j2057 = 0 to 1 {
    affine.for %j2058 = 0 to 1 {
    affine.for %j2059 = 0 to 1 {
    affine.for %j2060 = 0 to 1 {
    affine.for %j2061 = 0 to 1 {
    affine.for %j2062 = 0 to 1 {
    affine.for %j2063 = 0 to 1 {
    affine.for %j2064 = 0 to 1 {
    affine.for %j2065 = 0 to 1 {
    affine.for %j2066 = 0 to 1 {
    affine.for %j2067 = 0 to 1 {
    affine.for %j2068 = 0 to 1 {
    affine.for %j2069 = 0 to 1 {
    affine.for %j2070 = 0 to 1 {
    affine.for %j2071 = 0 to 1 {
    affine.for %j2072 = 0 to 1 {
    affine.for %j2073 = 0 to 1 {
    affine.for %j2074 = 0 to 1 {
    affine.for %j2075 = 0 to 1 {
    affine.for %j2076 = 0 to 1 {
    affine.for %j2077 = 0 to 1 {
    affine.for %j2078 = 0 to 1 {
    affine.for %j2079 = 0 to 1 {
    affine.for %j2080 = 0 to 1 {
    affine.for %j2081 = 0 to 1 {
    affine.for %j2082 = 0 to 1 {
    affine.for %j2083 = 0 to 1 {
    affine.for %j2084 = 0 to 1 {
    affine.for %j2085 = 0 to 1 {
    affine.for %j2086 = 0 to 1 {
    affine.for %j2087 = 0 to 1 {
    affine.for %j2088 = 0 to 1 {
    affine.for %j2089 = 0 to 1 {
    affine.for %j2090 = 0 to 1 {
    affine.for %j2091 = 0 to 1 {
    affine.for %j2092 = 0 to 1 {
    affine.for %j2093 = 0 to 1 {
    affine.for %j2094 = 0 to 1 {
    affine.for %j2095 = 0 to 1 {
    affine.for %j2096 = 0 to 1 {
    affine.for %j2097 = 0 to 1 {
    affine.for %j2098 = 0 to 1 {
    affine.for %j2099 = 0 to 1 {
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    %10 = memref.load %0[] : memref<i32> loc("small.py":8:12)
    memref.store %10, %1[] : memref<i32> loc("small.py":8:5)
    %11 = memref.load %1[] : memref<i32> loc("small.py":4:1)
    func.return %11 : i32 loc("small.py":4:1)
  } loc("small.py":4:1)
} loc(unknown)
